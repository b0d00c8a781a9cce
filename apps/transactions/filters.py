"""Query parameters of the transactions list. With neither `startDate` nor `endDate`, the window is the last 24
hours on `createdAt`; one bound alone leaves the other end open."""

import datetime as dt

from django.utils import timezone

from apps.api.filtersets import ChoiceListFilter, DateWindow, IntegerFilter, Ordering, PlatformFilterSet

from .choices import TransactionPaymentStatus, TransactionSourceType, TransactionType

DEFAULT_WINDOW = dt.timedelta(hours=24)
WINDOW_HELP = (
    "Date (a whole UTC day) or date-time with an offset, on `createdAt`; inclusive. With neither "
    "`startDate` nor `endDate` the list covers the last 24 hours; one bound alone leaves the other end open."
)


class TransactionFilterSet(PlatformFilterSet):
    paymentStatus = ChoiceListFilter("payment_status", choices=TransactionPaymentStatus)
    type = ChoiceListFilter("type", choices=TransactionType)
    sourceType = ChoiceListFilter("source_type", choices=TransactionSourceType)
    contactId = IntegerFilter("contact_id")
    clubId = IntegerFilter("club_id")
    bookingId = IntegerFilter("booking_id")
    membershipId = IntegerFilter("membership_id")
    revenueAccountId = IntegerFilter("revenue_account_id")

    date_window = DateWindow("created_at", start_help=WINDOW_HELP, end_help=WINDOW_HELP)
    ordering = Ordering(
        {"createdAt": "created_at", "amount": "amount"},
        default="-createdAt",
        help_text="`createdAt` (default `-createdAt`), `amount`; `-` for descending.",
    )

    def filter_queryset(self, queryset):
        if not (self.data.get("startDate") or self.data.get("endDate")):
            queryset = queryset.filter(created_at__gte=timezone.now() - DEFAULT_WINDOW)
        return super().filter_queryset(queryset)
