"""The price of an area booking under the organization's pricing rules: a pure function over rows.

No queries here: the caller passes the rule rows (dicts with the `PricingRule` column names), the area's facts,
the club's time zone and the plan ids of the contact's active memberships, so the bookings service and the
marketplace price with exactly the same function. How a price is built (docs/decisions/pricing.md):

1. The booking `[start, end)` is cut at every instant where the club's wall clock crosses midnight or a rule's
   `startTime`/`endTime` (both occurrences of a repeated wall-clock time on the day clocks go back). Within a
   piece the set of matching rules cannot change.
2. For each piece, the matching rules are applied in ascending `priority`, then ascending `id`, to the area's
   hourly rate (0 when it has none): `set_hourly_rate` replaces the running rate, `percent` multiplies it by
   `(100 + value) / 100`, `amount` adds `value`; the rate stays between 0 and `MAX_HOURLY_RATE`.
3. A piece costs `rate × elapsed seconds / 3600` (real elapsed time, so an hour lost or gained at a DST change is
   an hour less or more), unrounded. The pieces are summed and the sum is rounded once, half-up, at the
   currency's precision: that is `priceBeforeTax`.
4. `tax` = `priceBeforeTax × default tax rate / 100`, rounded half-up at the same precision; `price` =
   `priceBeforeTax + tax`.
"""

import datetime as dt
import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal

from apps.clubs.choices import WEEKDAYS
from apps.kernel import clock
from apps.kernel.money import round_money, tax_on

from .choices import AdjustmentType, Audience

# The largest hourly rate a rule may reach (the largest stored money value): keeps every sum within Decimal's
# precision however many rules stack up.
MAX_HOURLY_RATE = Decimal("99999999.99")

RULE_COLUMNS = (
    "id",
    "name",
    "club_id",
    "area_ids",
    "area_type_ids",
    "sports",
    "days_of_week",
    "start_minute",
    "end_minute",
    "valid_from",
    "valid_until",
    "audience",
    "plan_ids",
    "adjustment_type",
    "value",
    "priority",
)


@dataclass(frozen=True)
class AreaFacts:
    id: int
    club_id: int
    area_type_id: int | None
    hourly_rate: Decimal | None


@dataclass(frozen=True)
class Quote:
    duration_minutes: int
    price_before_tax: Decimal
    tax: Decimal
    price: Decimal
    applied_rules: list[dict]  # [{"id", "name"}] in the order they were applied


def quote(
    rules: Iterable[Mapping],
    *,
    area: AreaFacts,
    start: dt.datetime,
    end: dt.datetime,
    timezone: str,
    sport: str | None,
    member_plan_ids: frozenset[int],
    tax_rate: Decimal,
    exponent: int,
) -> Quote:
    """The price of booking `area` over `[start, end)` (aware date-times) for a contact whose active memberships
    are of `member_plan_ids` (empty: a non-member, or no contact). `rules` are the organization's active rules;
    the ones that do not match are skipped here."""
    tz = clock.zone(timezone)
    start, end = start.astimezone(dt.UTC), end.astimezone(dt.UTC)
    candidates = sorted(
        (r for r in rules if _matches_booking(r, area, sport, member_plan_ids)), key=lambda r: (r["priority"], r["id"])
    )
    base = Decimal(area.hourly_rate or 0)
    total = Decimal(0)
    applied: set[int] = set()
    points = [start, *_cuts(start, end, tz, candidates), end]
    for lower, upper in zip(points, points[1:], strict=False):
        local = lower.astimezone(tz)
        rate = base
        for rule in candidates:
            if _matches_moment(rule, local):
                rate = min(max(_adjust(rate, rule), Decimal(0)), MAX_HOURLY_RATE)
                applied.add(rule["id"])
        total += rate * Decimal((upper - lower).total_seconds()) / Decimal(3600)
    price_before_tax = round_money(total, exponent)
    tax = tax_on(price_before_tax, tax_rate, exponent)
    return Quote(
        duration_minutes=int((end - start).total_seconds() // 60),
        price_before_tax=price_before_tax,
        tax=tax,
        price=price_before_tax + tax,
        applied_rules=[{"id": r["id"], "name": r["name"]} for r in candidates if r["id"] in applied],
    )


def _matches_booking(rule, area: AreaFacts, sport, member_plan_ids) -> bool:
    """What does not depend on the moment: club, area, area type, sport and audience."""
    if rule["club_id"] is not None and rule["club_id"] != area.club_id:
        return False
    if rule["area_ids"] and area.id not in rule["area_ids"]:
        return False
    if rule["area_type_ids"] and area.area_type_id not in rule["area_type_ids"]:
        return False
    if rule["sports"] and sport not in rule["sports"]:
        return False
    if rule["plan_ids"] and not member_plan_ids.intersection(rule["plan_ids"]):
        return False
    if rule["audience"] == Audience.MEMBERS:
        return bool(member_plan_ids)
    if rule["audience"] == Audience.NON_MEMBERS:
        return not member_plan_ids
    return True


def _matches_moment(rule, local: dt.datetime) -> bool:
    """What depends on the club's wall clock at `local`: validity dates, day of the week, time of day."""
    day = local.date()
    if rule["valid_from"] is not None and day < rule["valid_from"]:
        return False
    if rule["valid_until"] is not None and day > rule["valid_until"]:
        return False
    if rule["days_of_week"] and WEEKDAYS[day.weekday()] not in rule["days_of_week"]:
        return False
    if rule["start_minute"] is not None:
        minute = local.hour * 60 + local.minute
        if not rule["start_minute"] <= minute < rule["end_minute"]:
            return False
    return True


def _adjust(rate: Decimal, rule) -> Decimal:
    value = Decimal(rule["value"])
    if rule["adjustment_type"] == AdjustmentType.SET_HOURLY_RATE:
        return value
    if rule["adjustment_type"] == AdjustmentType.PERCENT:
        return rate * (Decimal(100) + value) / Decimal(100)
    return rate + value


def _cuts(start: dt.datetime, end: dt.datetime, tz, rules) -> list[dt.datetime]:
    """The instants strictly inside `(start, end)` where the club's wall clock reads midnight or a rule's start or
    end time, sorted. Each wall-clock time is placed with both folds, so a time that happens twice when the clocks
    go back cuts at both instants, and a time skipped when they go forward cuts where the skip lands."""
    minutes = {0}
    for rule in rules:
        if rule["start_minute"] is not None:
            minutes.update((rule["start_minute"] % 1440, rule["end_minute"] % 1440))
    first = start.astimezone(tz).date() - dt.timedelta(days=1)
    last = end.astimezone(tz).date() + dt.timedelta(days=1)
    return [instant for instant in _wall_clock_cuts(first, last, tz, frozenset(minutes)) if start < instant < end]


@functools.lru_cache(maxsize=1024)
def _wall_clock_cuts(first: dt.date, last: dt.date, tz, minutes: frozenset[int]) -> tuple[dt.datetime, ...]:
    """Every instant from `first` to `last` (days on `tz`'s clock) where the clock reads one of `minutes`, both
    folds, sorted: the same for every quote of a day with the same rule times (a page of offers prices dozens)."""
    cuts = set()
    day = first
    while day <= last:
        midnight = dt.datetime.combine(day, dt.time())
        for minute in minutes:
            wall = midnight + dt.timedelta(minutes=minute)
            for fold in (0, 1):
                cuts.add(wall.replace(tzinfo=tz, fold=fold).astimezone(dt.UTC))
        day += dt.timedelta(days=1)
    return tuple(sorted(cuts))
