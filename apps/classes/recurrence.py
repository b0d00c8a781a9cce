"""Expanding a series rule into occurrence slots on the club's wall clock.

The rule is expanded with dateutil's `rrule` over naive local date-times (dtstart = the template start on the
club's clock), and each result is then localized with the club's zone: a weekly 18:00 class stays 18:00 local
across daylight-saving changes. Every rule occurrence has a 1-based index; an occurrence skipped because the club
is closed still consumes its index, so expanding again later (window extension, end moves) is idempotent.
"""

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass

from dateutil import rrule
from django.conf import settings

from apps.clubs.choices import DayOfWeek
from apps.kernel import clock

from .choices import EndsType, Frequency

_RRULE_DAYS = {
    DayOfWeek.MONDAY: rrule.MO,
    DayOfWeek.TUESDAY: rrule.TU,
    DayOfWeek.WEDNESDAY: rrule.WE,
    DayOfWeek.THURSDAY: rrule.TH,
    DayOfWeek.FRIDAY: rrule.FR,
    DayOfWeek.SATURDAY: rrule.SA,
    DayOfWeek.SUNDAY: rrule.SU,
}
_FREQUENCIES = {Frequency.DAILY: rrule.DAILY, Frequency.WEEKLY: rrule.WEEKLY, Frequency.MONTHLY: rrule.MONTHLY}


# Occurrences starting after this (local wall clock) are never created: the calendar ends with 2199.
LAST_LOCAL_START = dt.datetime(2199, 12, 31, 0, 0)


def max_occurrences() -> int:
    return getattr(settings, "SERIES_MAX_OCCURRENCES", 520)


@dataclass(frozen=True)
class Slot:
    """One rule occurrence: its index and its (shifted) start and end, aware."""

    index: int
    start: dt.datetime
    end: dt.datetime
    skipped: bool


def club_is_closed(club, local_day: dt.date) -> bool:
    """Closed on one of the club's closed dates or after its permanent closing date (opening hours don't count)."""
    if club.closing_date and local_day > club.closing_date:
        return True
    return local_day.isoformat() in set(club.closed_dates or [])


def iter_rule(series) -> Iterator[tuple[int, dt.datetime]]:
    """(index, naive local start) of every rule occurrence, unshifted; bounded series stop at the 520 cap."""
    tz = clock.zone(series.timezone)
    local_start = series.dtstart.astimezone(tz).replace(tzinfo=None)
    kwargs = {"dtstart": local_start, "interval": series.interval or 1}
    if series.frequency == Frequency.WEEKLY:
        kwargs["byweekday"] = [_RRULE_DAYS[d] for d in series.days_of_week]
    if series.ends_type == EndsType.AFTER:
        kwargs["count"] = min(series.ends_total_occurrences or 1, max_occurrences())
    rule = rrule.rrule(_FREQUENCIES[series.frequency], **kwargs)
    bounded = series.ends_type != EndsType.NEVER
    last = LAST_LOCAL_START
    for index, start in enumerate(rule, start=1):
        if bounded and index > max_occurrences():
            return
        if start > last:
            return  # the service's calendar ends in 2199; later occurrences are not created
        yield index, start


def expand(series, club, *, after_index: int, horizon: dt.datetime | None) -> Iterator[Slot]:
    """Rule slots with index > `after_index`, up to the series end (and `horizon` for an open-ended series)."""
    tz = clock.zone(series.timezone)
    shift = dt.timedelta(seconds=series.start_shift_seconds or 0)
    duration = dt.timedelta(minutes=series.duration_minutes)
    for index, local_start in iter_rule(series):
        if index <= after_index:
            continue
        start = clock.wall_time(local_start.date(), local_start.time(), tz) + shift
        if series.ends_type == EndsType.UNTIL and series.ends_date is not None and start > series.ends_date:
            return
        if series.ends_type == EndsType.NEVER and horizon is not None and start > horizon:
            return
        skipped = club_is_closed(club, clock.local_date(start, club))
        yield Slot(index=index, start=start, end=start + duration, skipped=skipped)


def last_index_within_end(series) -> int:
    """Highest rule index the (bounded) rule keeps under its current end; 0 when none."""
    last = 0
    for slot in expand(series, _NeverClosed(), after_index=0, horizon=None):
        last = slot.index
    return last


class _NeverClosed:
    timezone = "UTC"
    closing_date = None
    closed_dates = ()
