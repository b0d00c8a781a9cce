"""The amount invoiced over a period (`GET /invoices/summary`): one aggregate query, never a row per invoice.

What counts (docs/decisions/invoices.md): invoices whose `issueDate` falls in the period (whole days; issue dates are
kept on the organization's clock), of the club with `clubId`. `void` invoices (cancelled: nothing is owed) and
`draft` ones (not issued) are left out. `totalInvoiced` sums `total` (tax included), `totalPaid` sums `amountPaid`,
`totalOutstanding` sums `amountDue` of `open` invoices (an `uncollectible` one's due is written off, not
outstanding). Sums are rounded half-up at the currency's precision.
"""

from decimal import Decimal

from django.db.models import Count, F, Q, Sum

from apps.api.presenters import number
from apps.clubs.report_period import ReportPeriod
from apps.kernel.money import currency_exponent, round_money

from .choices import InvoiceStatus
from .models import Invoice

LEFT_OUT = (InvoiceStatus.VOID, InvoiceStatus.DRAFT)
AGGREGATES = {
    "count": Count("id"),
    "invoiced": Sum("total"),
    "paid": Sum("amount_paid"),
    "outstanding": Sum(F("total") - F("amount_paid"), filter=Q(status=InvoiceStatus.OPEN)),
}


def counted_invoices(organization, period: ReportPeriod):
    """The organization's invoices the summary counts: issued in the period, not void or draft, the club's."""
    queryset = Invoice.objects.filter(
        organization=organization, issue_date__gte=period.start, issue_date__lte=period.end
    ).exclude(status__in=LEFT_OUT)
    if period.club_id is not None:
        queryset = queryset.filter(club_id=period.club_id)
    return queryset.order_by()


def invoice_summary(organization, period: ReportPeriod) -> dict:
    """The body of `GET /invoices/summary`."""
    exponent = currency_exponent(organization.currency)
    totals = counted_invoices(organization, period).aggregate(**AGGREGATES)

    def rounded(value):
        return number(round_money(value or Decimal(0), exponent))

    return {
        "startDate": period.start,
        "endDate": period.end,
        "invoiceCount": totals["count"],
        "totalInvoiced": rounded(totals["invoiced"]),
        "totalPaid": rounded(totals["paid"]),
        "totalOutstanding": rounded(totals["outstanding"]),
    }
