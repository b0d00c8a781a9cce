"""Free time of areas: the club's opening hours minus what occupies each area (`queries.busy_intervals`)."""

import datetime as dt

from apps.clubs.models import Area, Club
from apps.clubs.services import opening_intervals
from apps.kernel import clock

from .queries import busy_intervals

MAX_AVAILABILITY_DAYS = 14
MAX_AVAILABILITY_MINUTES = MAX_AVAILABILITY_DAYS * 24 * 60


def next_whole_minute(value: dt.datetime) -> dt.datetime:
    """`value` rounded up to a whole minute, so free time starting now reads 10:21:00Z rather than 10:20:13.52Z."""
    rounded = value.replace(second=0, microsecond=0)
    return rounded if rounded == value else rounded + dt.timedelta(minutes=1)


def _subtract(free: list[tuple], busy_start, busy_end) -> list[tuple]:
    result = []
    for start, end in free:
        if busy_end <= start or busy_start >= end:
            result.append((start, end))
            continue
        if busy_start > start:
            result.append((start, busy_start))
        if busy_end < end:
            result.append((busy_end, end))
    return result


def _merge(intervals: list[tuple]) -> list[tuple]:
    merged: list[tuple] = []
    for start, end in intervals:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def free_intervals(
    club: Club,
    areas: list[Area],
    window_start: dt.datetime,
    window_end: dt.datetime,
    min_duration: dt.timedelta | None = None,
    not_before: dt.datetime | None = None,
) -> list[dict]:
    """Free time of each area inside the club's opening hours within [window_start, window_end).

    Busy time is whatever occupies the area (`queries.busy_intervals`). Three queries in all, whatever the number
    of areas. Rows are ordered by area (position, id), then start time.
    """
    if not_before is not None and not_before > window_start:
        window_start = not_before
    if not areas or window_end <= window_start:
        return []

    tz = clock.zone_of(club)
    first_day = window_start.astimezone(tz).date() - dt.timedelta(days=1)  # a "24:00" or overnight day
    last_day = (window_end - dt.timedelta(microseconds=1)).astimezone(tz).date()
    opening = []
    day = first_day
    while day <= last_day:
        for start, end in opening_intervals(club, day):
            start, end = max(start, window_start), min(end, window_end)
            if end > start:
                opening.append((start, end))
        day += dt.timedelta(days=1)
    if not opening:
        return []
    opening = _merge(sorted(opening))

    busy: dict[int, list[tuple]] = {a.id: [] for a in areas}
    for area_id, start, end in busy_intervals([a.id for a in areas], window_start, window_end):
        busy[area_id].append((start, end))

    result = []
    for area in areas:
        free = list(opening)
        for start, end in sorted(busy[area.id]):
            free = _subtract(free, start, end)
        for start, end in free:
            if min_duration and end - start < min_duration:
                continue
            result.append(
                {"clubId": club.id, "areaId": area.id, "areaName": area.name, "startTime": start, "endTime": end}
            )
    return result
