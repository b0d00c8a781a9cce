"""Query parameters of the memberships list."""

from apps.api.filtersets import ChoiceListFilter, DateWindow, IntegerFilter, Ordering, PlatformFilterSet

from .choices import MembershipPaymentStatus, MembershipStatus

START_HELP = "Date (`YYYY-MM-DD`): memberships starting on or after it (on `startDate`); inclusive."
END_HELP = "Date (`YYYY-MM-DD`): memberships starting on or before it (on `startDate`); inclusive."


class MembershipFilterSet(PlatformFilterSet):
    contactId = IntegerFilter("contact_id")
    planId = IntegerFilter("plan_id")
    clubId = IntegerFilter("club_id")
    status = ChoiceListFilter("status", choices=MembershipStatus)
    paymentStatus = ChoiceListFilter("payment_status", choices=MembershipPaymentStatus)

    date_window = DateWindow("start_date", start_help=START_HELP, end_help=END_HELP)
    ordering = Ordering(
        {"createdAt": "created_at", "startDate": "start_date", "endDate": "end_date"},
        default="-createdAt",
        help_text="`createdAt` (default `-createdAt`), `startDate`, `endDate`; `-` for descending.",
    )
