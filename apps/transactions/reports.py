"""The revenue report (`GET /transactions/summary`): aggregate queries over a period, never a row per transaction.

What counts (docs/decisions/reports.md): transactions whose `occurredAt` falls in the period, `void` ones left
out. Charges and outside revenue are sales: `count`, `gross` (their tax-inclusive `amount`, paid or not) and `tax`.
`refunded` is the amount of `refund` transactions (outside revenue refunded through the API) plus the
`refundedAmount` a partner reported on a charge (such a refund has no transaction of its own, so it is dated with
its charge). `net` = `gross` − `refunded`. Sums are rounded half-up at the currency's precision.

One query whatever the number of rows: sums per transaction type (and per day or revenue account when grouped),
folded into the figures here; weeks and months are rolled up from the days (at most 367 day rows per type), so
every grouping runs the same query. On PostgreSQL the query reads the sums a trigger keeps (`RevenueSum`) instead
of the transactions wherever a span lies inside one bucket of the report (a day, week or month on the report's
clock, or the whole period): a UTC day's row for every such day, an hour's row for every such hour of the other
days, and the transactions themselves only in the hours a bucket starts inside of (none on a clock a whole number
of hours from UTC; one per bucket on, say, India's). The same sums, from a row per day or hour and key instead of
one per transaction (docs/decisions/scale.md).
"""

import datetime as dt
from decimal import Decimal

from django.db import connections
from django.db.models import Count, DateField, Q, Sum
from django.db.models.functions import Trunc

from apps.api.presenters import number
from apps.clubs.report_period import ReportPeriod
from apps.kernel import clock
from apps.kernel.money import currency_exponent, round_money

from .choices import TransactionPaymentStatus, TransactionType
from .models import RevenueSum, Transaction

GROUP_BY = ("day", "week", "month", "revenueAccount")
NO_REVENUE_ACCOUNT = "none"

SALES = (TransactionType.CHARGE, TransactionType.EXTERNAL_REVENUE)
SUMS = {
    "n": Count("id"),
    "amount_sum": Sum("amount"),
    "tax_sum": Sum("tax_amount"),
    "refunded_sum": Sum("refunded_amount"),
}
SPAN_SUMS = {  # the same figures over `RevenueSum` rows, in the same order (the two are one UNION ALL)
    "n": Sum("count"),
    "amount_sum": Sum("amount"),
    "tax_sum": Sum("tax_amount"),
    "refunded_sum": Sum("refunded_amount"),
}
HOUR = dt.timedelta(hours=1)
DAY = dt.timedelta(days=1)


class Figures:
    """The running sums of one group (or of the totals), exact Decimals until presented."""

    def __init__(self):
        self.count = 0
        self.gross = self.tax = self.refunded = Decimal(0)

    def add(self, row: dict):
        """Fold one `(type, n, amount_sum, tax_sum, refunded_sum)` row in."""
        if row["type"] in SALES:
            self.count += row["n"]
            self.gross += row["amount_sum"] or 0
            self.tax += row["tax_sum"] or 0
        if row["type"] == TransactionType.REFUND:
            self.refunded += row["amount_sum"] or 0
        elif row["type"] == TransactionType.CHARGE:
            self.refunded += row["refunded_sum"] or 0  # refunds a partner reported on the charge itself

    def present(self, exponent: int) -> dict:
        return {
            "count": self.count,
            "gross": number(round_money(self.gross, exponent)),
            "tax": number(round_money(self.tax, exponent)),
            "refunded": number(round_money(self.refunded, exponent)),
            "net": number(round_money(self.gross - self.refunded, exponent)),
        }


def counted_transactions(organization, period: ReportPeriod):
    """The organization's transactions the report counts: in the period (on `occurredAt`), not void, the club's."""
    queryset = Transaction.objects.filter(
        organization=organization, occurred_at__gte=period.lower, occurred_at__lt=period.upper
    ).exclude(payment_status=TransactionPaymentStatus.VOID)
    if period.club_id is not None:
        queryset = queryset.filter(club_id=period.club_id)
    return queryset.order_by()


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


def _bucket_start(day: dt.date, group_by: str) -> dt.date:
    if group_by == "week":
        return day - dt.timedelta(days=day.weekday())
    if group_by == "month":
        return day.replace(day=1)
    return day


def _grouped(queryset, group_by: str | None, instant: str, sums: dict, zone):
    """`queryset`'s sums per type, and per day (of the date-time field `instant`) or revenue account."""
    if group_by == "revenueAccount":
        return queryset.values("revenue_account_id", "type").annotate(**sums)
    if group_by:
        day = Trunc(instant, "day", output_field=DateField(), tzinfo=zone)
        return queryset.annotate(day=day).values("day", "type").annotate(**sums)
    return queryset.values("type").annotate(**sums)


def _bucket_bounds(period: ReportPeriod, group_by: str | None) -> list[dt.datetime]:
    """The first instant of every bucket of the report, and the period's end."""
    if group_by not in ("day", "week", "month"):
        return [period.lower, period.upper]
    starts = [period.start, *(day for day in _period_starts(period, group_by) if day > period.start)]
    return [clock.day_bounds(day, period.zone)[0] for day in starts] + [period.upper]


def _floor(instant: dt.datetime, span: dt.timedelta) -> dt.datetime:
    """The first instant of the UTC hour (or day) holding `instant`."""
    hour = instant.astimezone(dt.UTC).replace(minute=0, second=0, microsecond=0)
    return hour.replace(hour=0) if span == DAY else hour


def _cut(bounds: list[dt.datetime], span: dt.timedelta) -> list[dt.datetime]:
    """The UTC hours (or days) that a bound falls inside of rather than on, in order."""
    return sorted({_floor(bound, span) for bound in bounds if _floor(bound, span) != bound})


def edge_hours(period: ReportPeriod, group_by: str | None) -> list[dt.datetime]:
    """The UTC hours a bucket's first instant (or the period's end) falls inside of: their transactions belong to
    two buckets (or lie partly outside the period), so the report reads them one by one."""
    return _cut(_bucket_bounds(period, group_by), HOUR)


def _ranges(field: str, starts: list[dt.datetime], span: dt.timedelta, lower, upper) -> Q:
    """`field` in any of the spans from `starts` (runs of adjacent ones merged), within [lower, upper)."""
    runs: list[list[dt.datetime]] = []
    for start in starts:
        if runs and runs[-1][1] == start:
            runs[-1][1] = start + span
        else:
            runs.append([start, start + span])
    found = Q()
    for first, end in runs:
        found |= Q(**{f"{field}__gte": max(first, lower), f"{field}__lt": min(end, upper)})
    return found


def reads_kept_sums(database: str) -> bool:
    """Whether `RevenueSum` is kept on `database`: by a PostgreSQL trigger only."""
    return connections[database].vendor == "postgresql"


def _sums(organization, period: ReportPeriod, group_by: str | None):
    """The one query: sums per type, and per day or revenue account when grouped."""
    transactions = counted_transactions(organization, period)
    if not reads_kept_sums(transactions.db):
        return _grouped(transactions, group_by, "occurred_at", SUMS, period.zone)
    lower, upper = period.lower, period.upper
    bounds = _bucket_bounds(period, group_by)
    edges, cut_days = _cut(bounds, HOUR), _cut(bounds, DAY)
    # Whole UTC days inside one bucket, and the other days' hours but those a bound cuts; all inside the period.
    first_day = lower if _floor(lower, DAY) == lower else _floor(lower, DAY) + DAY
    uncut_days = sorted({first_day + n * DAY for n in range((upper - first_day) // DAY)}.difference(cut_days))
    spans = Q(pk__in=[])
    if uncut_days:
        spans |= Q(hours=24) & _ranges("start", uncut_days, DAY, lower, upper)
    if cut_days:
        hours = Q(hours=1, start__gte=lower, start__lte=upper - HOUR) & ~Q(start__in=edges)
        spans |= hours & _ranges("start", cut_days, DAY, lower, upper)
    kept = RevenueSum.objects.filter(Q(organization_id=organization.id) & spans)
    if period.club_id is not None:
        kept = kept.filter(club_id=period.club_id)
    # A key's rows may sum to nothing (its transactions voided or moved): no group, as no transaction.
    summed = _grouped(kept, group_by, "start", SPAN_SUMS, period.zone).filter(n__gt=0)
    if not edges:
        return summed
    cut = transactions.filter(_ranges("occurred_at", edges, HOUR, lower, upper))
    return summed.union(_grouped(cut, group_by, "occurred_at", SUMS, period.zone), all=True)


def revenue_summary(organization, period: ReportPeriod, group_by: str | None = None) -> dict:
    """The body of `GET /transactions/summary`."""
    exponent = currency_exponent(organization.currency)
    totals = Figures()
    groups: dict = {}
    if group_by in ("day", "week", "month"):
        groups = {start: Figures() for start in _period_starts(period, group_by)}
    for row in _sums(organization, period, group_by):
        totals.add(row)
        if group_by == "revenueAccount":
            groups.setdefault(row["revenue_account_id"], Figures()).add(row)
        elif group_by:
            groups[_bucket_start(row["day"], group_by)].add(row)
    if group_by == "revenueAccount":
        presented = [
            {"key": str(account_id), **groups[account_id].present(exponent)}
            for account_id in sorted(account for account in groups if account is not None)
        ]
        if None in groups:
            presented.append({"key": NO_REVENUE_ACCOUNT, **groups[None].present(exponent)})
    else:
        presented = [
            {"key": _date_key(start, group_by), **figures.present(exponent)} for start, figures in groups.items()
        ]
    return {
        "startDate": period.start,
        "endDate": period.end,
        "totals": totals.present(exponent),
        "groups": presented,
    }


def revenue_and_refunds(organization, period: ReportPeriod) -> tuple[float, float]:
    """`gross` and `refunded` of the revenue report over the period (one query), for the analytics totals."""
    totals = revenue_summary(organization, period)["totals"]
    return totals["gross"], totals["refunded"]
