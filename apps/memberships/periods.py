"""Period arithmetic of memberships: pure functions of dates and the plan's cadence, no database.

- A period runs from its first day to its last day, both inclusive; the next period starts the day after.
- `weekly` is 7 days, `custom` in `days`/`weeks` is that many days; `monthly`, `quarterly` (3), `annually` (12)
  and `custom` in `months` move the calendar month and keep the day of the month the membership started on,
  clamped to the month's last day: a membership started on 31 January covers 31 Jan - 27 Feb (28 Feb starts
  the next period), then 28 Feb - 30 Mar, then 31 Mar - 29 Apr, and so on.
- A `one_time` plan has no periods to renew: it covers `validityPeriod` days from the start (the start day
  counted), or has no end when the plan sets none.
"""

import calendar
import datetime as dt
from dataclasses import dataclass

from apps.billing.choices import BillingFrequency, CustomPeriodUnit

ONE_DAY = dt.timedelta(days=1)


@dataclass(frozen=True)
class Cadence:
    """How far one period reaches: `count` days, or `count` calendar months."""

    unit: str  # "days" or "months"
    count: int


FIXED = {
    BillingFrequency.WEEKLY: Cadence("days", 7),
    BillingFrequency.MONTHLY: Cadence("months", 1),
    BillingFrequency.QUARTERLY: Cadence("months", 3),
    BillingFrequency.ANNUALLY: Cadence("months", 12),
}


def cadence_of(frequency: str, custom_period: int | None = None, custom_unit: str | None = None) -> Cadence | None:
    """The period length of a billing frequency; None for `one_time` (or an incomplete custom period)."""
    if frequency in FIXED:
        return FIXED[frequency]
    if frequency == BillingFrequency.CUSTOM and custom_period:
        if custom_unit == CustomPeriodUnit.MONTHS:
            return Cadence("months", custom_period)
        if custom_unit == CustomPeriodUnit.WEEKS:
            return Cadence("days", 7 * custom_period)
        if custom_unit == CustomPeriodUnit.DAYS:
            return Cadence("days", custom_period)
    return None


def plan_cadence(plan) -> Cadence | None:
    return cadence_of(plan.billing_frequency, plan.custom_period, plan.custom_period_unit)


def add_months(day: dt.date, months: int, anchor_day: int | None = None) -> dt.date:
    """`day` moved by `months` calendar months, on `anchor_day` (default `day.day`) clamped to the month's end."""
    index = day.month - 1 + months
    year, month = day.year + index // 12, index % 12 + 1
    last = calendar.monthrange(year, month)[1]
    return dt.date(year, month, min(anchor_day or day.day, last))


def next_start(start: dt.date, cadence: Cadence, anchor_day: int) -> dt.date:
    """The first day of the period after the one starting on `start`."""
    if cadence.unit == "months":
        return add_months(start, cadence.count, anchor_day)
    return start + dt.timedelta(days=cadence.count)


def period_end(start: dt.date, cadence: Cadence, anchor_day: int) -> dt.date:
    """The last day (inclusive) of the period starting on `start`."""
    return next_start(start, cadence, anchor_day) - ONE_DAY


def one_time_end(start: dt.date, validity_days: int | None) -> dt.date | None:
    """The last day a one-time plan covers: `validityPeriod` days counting the start day; None without one."""
    if not validity_days:
        return None
    return start + dt.timedelta(days=validity_days - 1)
