"""The revenue report (`GET /transactions/summary`): aggregate queries over a period, never a row per transaction.

What counts (docs/decisions/reports.md): transactions whose `occurredAt` falls in the period, `void` ones left
out. Charges and outside revenue are sales: `count`, `gross` (their tax-inclusive `amount`, paid or not) and `tax`.
`refunded` is the amount of `refund` transactions (outside revenue refunded through the API) plus the
`refundedAmount` a partner reported on a charge (such a refund has no transaction of its own, so it is dated with
its charge). `net` = `gross` − `refunded`. Sums are rounded half-up at the currency's precision.

Two queries at most whatever the number of rows: the totals, and the groups when `groupBy` is given.
"""

import datetime as dt
from decimal import Decimal

from django.db.models import Count, DateField, Q, Sum
from django.db.models.functions import Trunc

from apps.api.presenters import money
from apps.api.reports import ReportPeriod
from apps.pricing.quote import currency_exponent, round_money

from .choices import TransactionPaymentStatus, TransactionType
from .models import Transaction

GROUP_BY = ("day", "week", "month", "revenueAccount")
NO_REVENUE_ACCOUNT = "none"

SALES = Q(type__in=(TransactionType.CHARGE, TransactionType.EXTERNAL_REVENUE))
AGGREGATES = {
    "count": Count("id", filter=SALES),
    "gross": Sum("amount", filter=SALES),
    "tax": Sum("tax_amount", filter=SALES),
    "refund_records": Sum("amount", filter=Q(type=TransactionType.REFUND)),
    "charge_refunds": Sum("refunded_amount", filter=Q(type=TransactionType.CHARGE)),
}


def counted_transactions(organization, period: ReportPeriod):
    """The organization's transactions the report counts: in the period (on `occurredAt`), not void, the club's."""
    queryset = Transaction.objects.filter(
        organization=organization, occurred_at__gte=period.lower, occurred_at__lt=period.upper
    ).exclude(payment_status=TransactionPaymentStatus.VOID)
    if period.club_id is not None:
        queryset = queryset.filter(club_id=period.club_id)
    return queryset.order_by()


def _figures(row: dict, exponent: int) -> dict:
    zero = Decimal(0)
    gross = row["gross"] or zero
    refunded = (row["refund_records"] or zero) + (row["charge_refunds"] or zero)
    return {
        "count": row["count"],
        "gross": money(round_money(gross, exponent)),
        "tax": money(round_money(row["tax"] or zero, exponent)),
        "refunded": money(round_money(refunded, exponent)),
        "net": money(round_money(gross - refunded, exponent)),
    }


def _period_starts(period: ReportPeriod, group_by: str) -> list[dt.date]:
    """The first day of every day, ISO week (Monday) or month that overlaps the period, in order."""
    if group_by == "day":
        first, step = period.start, None
    elif group_by == "week":
        first, step = period.start - dt.timedelta(days=period.start.weekday()), None
    else:
        first, step = period.start.replace(day=1), "month"
    starts = []
    day = first
    while day <= period.end:
        starts.append(day)
        if step == "month":
            day = (day.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
        else:
            day += dt.timedelta(days=7 if group_by == "week" else 1)
    return starts


def _date_key(day: dt.date, group_by: str) -> str:
    return day.strftime("%Y-%m") if group_by == "month" else day.isoformat()


def _groups(queryset, period: ReportPeriod, group_by: str, exponent: int) -> list[dict]:
    if group_by == "revenueAccount":
        rows = queryset.values("revenue_account_id").annotate(**AGGREGATES).order_by("revenue_account_id")
        return [
            {
                "key": NO_REVENUE_ACCOUNT if row["revenue_account_id"] is None else str(row["revenue_account_id"]),
                **_figures(row, exponent),
            }
            for row in rows
        ]
    bucket = Trunc("occurred_at", group_by, output_field=DateField(), tzinfo=period.zone)
    found = {row["bucket"]: row for row in queryset.annotate(bucket=bucket).values("bucket").annotate(**AGGREGATES)}
    empty = dict.fromkeys(AGGREGATES, None) | {"count": 0}
    return [
        {"key": _date_key(day, group_by), **_figures(found.get(day, empty), exponent)}
        for day in _period_starts(period, group_by)
    ]


def revenue_summary(organization, period: ReportPeriod, group_by: str | None = None) -> dict:
    """The body of `GET /transactions/summary`."""
    exponent = currency_exponent(organization.currency)
    queryset = counted_transactions(organization, period)
    totals = _figures(queryset.aggregate(**AGGREGATES), exponent)
    return {
        "startDate": period.start,
        "endDate": period.end,
        "totals": totals,
        "groups": _groups(queryset, period, group_by, exponent) if group_by else [],
    }


def revenue_and_refunds(organization, period: ReportPeriod) -> tuple[float, float]:
    """`gross` and `refunded` of the revenue report over the period (one query), for the analytics totals."""
    exponent = currency_exponent(organization.currency)
    totals = _figures(counted_transactions(organization, period).aggregate(**AGGREGATES), exponent)
    return totals["gross"], totals["refunded"]
