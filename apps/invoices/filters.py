"""Query parameters of the invoices list: status, contact, club and the issue-date window, newest first."""

from apps.api.filtersets import ChoiceListFilter, DateWindow, IntegerFilter, Ordering, PlatformFilterSet

from .choices import InvoiceStatus

WINDOW_HELP = (
    "Date (YYYY-MM-DD) or date-time with an offset (its day on the organization's clock), on `issueDate`; inclusive."
)


class InvoiceFilterSet(PlatformFilterSet):
    status = ChoiceListFilter("status", choices=InvoiceStatus)
    contactId = IntegerFilter("contact_id")
    clubId = IntegerFilter("club_id")

    date_window = DateWindow("issue_date", days=True, start_help=WINDOW_HELP, end_help=WINDOW_HELP)
    ordering = Ordering(
        {"issueDate": "issue_date", "number": "sequence", "total": "total", "createdAt": "created_at"},
        default="-issueDate",
        help_text="`issueDate` (default `-issueDate`: newest first), `number`, `total`, `createdAt`; `-` for "
        "descending.",
    )
