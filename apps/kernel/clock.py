"""Clocks: which zone a club or organization lives in, what day it is there, and wall-clock times as instants.

The rules, written once:

- The zone of a club is its own, else its organization's, else UTC; an empty or unknown name counts as none.
- A wall-clock time that does not exist (inside the gap when the clocks go forward) moves forward by the gap's
  length: 02:30 on the night Europe/Madrid skips 02:00-03:00 is 03:30 CEST, the instant `fold=0` gives.
- A wall-clock time that happens twice (the hour repeated when the clocks go back) is, as a single time, its
  first occurrence; a grid of start times lists both occurrences, in the order they happen.
- A local day is the half-open range [its start, the next day's start), so it lasts 23 or 25 hours on DST nights.
"""

import datetime as dt
import functools
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.utils import timezone as django_timezone

UTC = dt.UTC
MINUTES_PER_DAY = 24 * 60


@functools.cache
def zone(name: str | None) -> ZoneInfo:
    """The zone named `name` (an IANA name); UTC for an empty or unknown name."""
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        return ZoneInfo("UTC")


def is_zone_name(name: str) -> bool:
    """Whether `name` is a time zone this system knows (for validating input)."""
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        return False
    return True


def _name_of(holder) -> str | None:
    if holder is None or isinstance(holder, str):
        return holder
    return getattr(holder, "timezone", None)


def zone_of(*holders) -> ZoneInfo:
    """The zone of the first holder that has one: `zone_of(club, organization)` is the club's zone, else the
    organization's, else UTC. A holder is anything with a `timezone` attribute, a zone name, a zone or None."""
    for holder in holders:
        if isinstance(holder, ZoneInfo):
            return holder
        name = _name_of(holder)
        if name:
            return zone(name)
    return zone(None)


def local_date(instant: dt.datetime, *holders) -> dt.date:
    """The date `instant` falls on, on the clock of `holders` (see `zone_of`)."""
    return instant.astimezone(zone_of(*holders)).date()


def today(*holders, now: dt.datetime | None = None) -> dt.date:
    """Today on the clock of `holders` (see `zone_of`), at `now` (default: the current instant)."""
    return local_date(now or django_timezone.now(), *holders)


def wall_time(day: dt.date, time: dt.time, tz: ZoneInfo) -> dt.datetime:
    """The UTC instant of the wall-clock `time` of `day` in `tz`: a nonexistent time moves forward by the gap, a
    repeated one is its first occurrence."""
    return dt.datetime.combine(day, time.replace(tzinfo=None, fold=0), tzinfo=tz).astimezone(UTC)


def wall_instants(day: dt.date, time: dt.time, tz: ZoneInfo) -> tuple[dt.datetime, ...]:
    """Every UTC instant at which the clocks of `tz` show `time` on `day`: none inside a DST gap, two in the
    repeated hour, else one."""
    found = []
    for fold in (0, 1):
        local = dt.datetime.combine(day, time.replace(tzinfo=None, fold=fold), tzinfo=tz)
        instant = local.astimezone(UTC)
        back = instant.astimezone(tz)
        if back.replace(tzinfo=None, fold=0) == local.replace(tzinfo=None, fold=0) and instant not in found:
            found.append(instant)
    return tuple(found)


def day_bounds(day: dt.date, tz: ZoneInfo) -> tuple[dt.datetime, dt.datetime]:
    """The UTC instants where `day` starts and where the next day starts on the clock of `tz` (23 or 25 hours
    apart on DST nights)."""
    return wall_time(day, dt.time.min, tz), wall_time(day + dt.timedelta(days=1), dt.time.min, tz)


def start_grid(
    day: dt.date, tz: ZoneInfo, step_minutes: int, first: dt.time | None = None, last: dt.time | None = None
) -> tuple[dt.datetime, ...]:
    """Every start time of `day` on the clock of `tz` at a whole multiple of `step_minutes` past midnight, from
    `first` (rounded up to the step; default midnight) to `last` (included; default the end of the day), as UTC
    instants in the order they happen. Wall times inside the gap of the night the clocks go forward are absent;
    those of the hour repeated when they go back are listed twice, once per occurrence."""
    return _grid(day, tz.key, step_minutes, _minute(first, 0), _minute(last, MINUTES_PER_DAY - 1))


def _minute(time: dt.time | None, default: int) -> int:
    return default if time is None else time.hour * 60 + time.minute


@functools.lru_cache(maxsize=1024)
def _grid(day: dt.date, zone_name: str, step: int, first: int, last: int) -> tuple[dt.datetime, ...]:
    tz = zone(zone_name)
    first = -(-first // step) * step
    instants = [
        instant
        for minute in range(first, min(last, MINUTES_PER_DAY - 1) + 1, step)
        for instant in wall_instants(day, dt.time(minute // 60, minute % 60), tz)
    ]
    return tuple(sorted(instants))


def moment_label(instant: dt.datetime, *holders) -> str:
    """`instant` on the clock of `holders` (see `zone_of`) as notices write it: `2026-03-29 at 18:00`."""
    return f"{instant.astimezone(zone_of(*holders)):%Y-%m-%d at %H:%M}"


def hhmm(instant: dt.datetime, tz: ZoneInfo) -> str:
    """`instant`'s wall-clock time on `tz` as `HH:MM`."""
    return instant.astimezone(tz).strftime("%H:%M")
