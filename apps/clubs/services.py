"""Domain operations of clubs, areas, area types and blocks, plus opening hours and free-time computation.

Views, the admin, management commands and other apps call these; they raise `apps.api.exceptions` errors.
"""

import datetime as dt
from zoneinfo import ZoneInfo

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.text import slugify

from apps.api.exceptions import ApiError, DuplicateValue, NotFound, ValidationFailed
from apps.domain_events.services import emit

from .choices import WEEKDAYS
from .models import Area, AreaBlock, AreaType, Club
from .resources import present_block

# --- Opening hours -------------------------------------------------------------------------------------------


def club_tz(club: Club) -> ZoneInfo:
    return ZoneInfo(club.timezone or "UTC")


def _closed_dates(club: Club) -> set[str]:
    return {str(d) for d in (club.closed_dates or [])}


def _parse_hhmm(value: str) -> dt.time:
    hours, minutes = str(value).split(":")[:2]
    hours, minutes = int(hours), int(minutes)
    if hours == 24 and minutes == 0:
        return dt.time.max
    return dt.time(hours, minutes)


def _day_hours(club: Club, local_date: dt.date) -> list:
    return (club.opening_hours or {}).get(WEEKDAYS[local_date.weekday()]) or []


def is_club_open_on(club: Club, local_date: dt.date) -> bool:
    """False on a closed date, on or after the permanent closing date, or on a weekday without opening hours."""
    if local_date.isoformat() in _closed_dates(club):
        return False
    if club.closing_date is not None and local_date >= club.closing_date:
        return False
    return bool(_day_hours(club, local_date))


def _local_instant(local_date: dt.date, wall: dt.time, tz: ZoneInfo) -> dt.datetime:
    if wall == dt.time.max:  # "24:00" is midnight at the start of the next day
        return dt.datetime.combine(local_date + dt.timedelta(days=1), dt.time.min, tzinfo=tz)
    # A wall time inside a DST gap (fold=0) maps to the instant as many minutes after the gap's start.
    return dt.datetime.combine(local_date, wall, tzinfo=tz)


def opening_intervals(club: Club, local_date: dt.date) -> list[tuple[dt.datetime, dt.datetime]]:
    """The club's opening intervals on `local_date` (its own calendar day) as aware UTC datetimes, in order.

    Opening hours are wall-clock times on the club's clock, so a DST change shifts their UTC instants.
    """
    if not is_club_open_on(club, local_date):
        return []
    tz = club_tz(club)
    intervals = []
    for pair in _day_hours(club, local_date):
        try:
            opens, closes = _parse_hhmm(pair[0]), _parse_hhmm(pair[1])
        except (ValueError, TypeError, IndexError):
            continue  # a malformed stored interval is skipped rather than breaking every read
        start = _local_instant(local_date, opens, tz).astimezone(dt.UTC)
        end = _local_instant(local_date, closes, tz).astimezone(dt.UTC)
        if end > start:
            intervals.append((start, end))
    intervals.sort()
    return intervals


def club_today(club: Club) -> dt.date:
    return timezone.now().astimezone(club_tz(club)).date()


# --- availability.changed ------------------------------------------------------------------------------------


def availability_changed_data(area: Area, start: dt.datetime | None, end: dt.datetime | None, cause: str) -> dict:
    """The `availability.changed` payload (API.md §9).

    `date` is the club-local day on which the change starts; `startTime`/`endTime` bound the changed time (UTC),
    both null when the whole area changed from `date` on (area created, activated or deactivated).
    """
    club = area.club
    day = start.astimezone(club_tz(club)).date() if start is not None else club_today(club)
    return {
        "organizationId": area.organization_id,
        "clubId": area.club_id,
        "areaId": area.id,
        "date": day.isoformat(),
        "startTime": start.astimezone(dt.UTC) if start is not None else None,
        "endTime": end.astimezone(dt.UTC) if end is not None else None,
        "cause": cause,
    }


def emit_availability_changed(area: Area, start=None, end=None, cause: str = "area") -> None:
    """Record `availability.changed` for `area` in the current transaction; other apps (bookings, classes) call
    this too."""
    emit(area.organization_id, "availability.changed", availability_changed_data(area, start, end, cause))


# --- Area types ----------------------------------------------------------------------------------------------


def _unique_area_type_slug(organization, base: str, exclude_id=None) -> str:
    base = (base or "area-type")[:110]
    taken = set(
        AreaType.objects.filter(organization=organization, slug__startswith=base)
        .exclude(id=exclude_id)
        .values_list("slug", flat=True)
    )
    slug, n = base, 2
    while slug in taken:
        slug = f"{base}-{n}"
        n += 1
    return slug


def _check_area_type_slug(organization, slug: str, exclude_id=None) -> None:
    existing = AreaType.objects.filter(organization=organization, slug=slug).exclude(id=exclude_id).first()
    if existing is not None:
        raise DuplicateValue("slug", existing.id)


def _save_area_type(organization, area_type: AreaType) -> AreaType:
    """Insert or update; a slug taken by a concurrent writer between the check and the write is a 409, not a 500."""
    try:
        with transaction.atomic():
            area_type.save()
    except IntegrityError:
        existing = AreaType.objects.filter(organization=organization, slug=area_type.slug).first()
        raise DuplicateValue("slug", existing.id if existing else None)
    return area_type


def create_area_type(organization, *, name: str, slug: str | None = None, max_players=None) -> AreaType:
    if slug:
        _check_area_type_slug(organization, slug)
    else:
        slug = _unique_area_type_slug(organization, slugify(name))
    area_type = AreaType(organization=organization, name=name, slug=slug, max_players=max_players)
    return _save_area_type(organization, area_type)


def update_area_type(area_type: AreaType, changes: dict) -> AreaType:
    """Apply `changes`; an empty or no-op PATCH writes nothing and keeps `updatedAt`."""
    changes = {field: value for field, value in changes.items() if getattr(area_type, field) != value}
    if not changes:
        return area_type
    if "slug" in changes:
        _check_area_type_slug(area_type.organization_id, changes["slug"], exclude_id=area_type.id)
    for field, value in changes.items():
        setattr(area_type, field, value)
    return _save_area_type(area_type.organization_id, area_type)


# --- Areas ---------------------------------------------------------------------------------------------------

AREA_FIELDS = ("name", "area_type", "sports", "hourly_rate", "is_indoor", "is_active", "images", "position")


@transaction.atomic
def create_area(organization, *, club: Club, name: str, **fields) -> Area:
    """A new area of `club`; without a `position` it goes after the club's last area."""
    if fields.get("position") is None:
        last = Area.objects.filter(club=club).aggregate(m=Max("position"))["m"]
        fields["position"] = 0 if last is None else last + 1
    area = Area.objects.create(
        organization=organization, club=club, name=name, **{k: v for k, v in fields.items() if k in AREA_FIELDS}
    )
    emit_availability_changed(area, cause="area")
    return area


@transaction.atomic
def update_area(area: Area, changes: dict) -> Area:
    """Apply `changes` on the locked row; an empty or no-op PATCH writes nothing and keeps `updatedAt`."""
    area = Area.objects.select_for_update(of=("self",)).select_related("area_type", "club").get(pk=area.pk)
    changes = {f: v for f, v in changes.items() if f in AREA_FIELDS and getattr(area, f) != v}
    if not changes:
        return area
    was_active = area.is_active
    for field, value in changes.items():
        setattr(area, field, value)
    area.save()
    if area.is_active != was_active:
        emit_availability_changed(area, cause="area")
    return area


# --- Blocks --------------------------------------------------------------------------------------------------


def slot_conflicts(area: Area, start: dt.datetime, end: dt.datetime) -> list[dict]:
    """Active area bookings of `area` overlapping [start, end), as `[{type: "booking", id}]`."""
    from apps.bookings.choices import ACTIVE_BOOKING_STATUSES, BookingType
    from apps.bookings.models import Booking

    ids = (
        Booking.objects.filter(
            area_id=area.id,
            type=BookingType.AREA,
            status__in=ACTIVE_BOOKING_STATUSES,
            start_time__lt=end,
            end_time__gt=start,
        )
        .order_by("start_time", "id")
        .values_list("id", flat=True)
    )
    return [{"type": "booking", "id": booking_id} for booking_id in ids]


def create_block(organization, *, area: Area, start_time: dt.datetime, end_time: dt.datetime, reason=None):
    """Block `area` for [start_time, end_time); refused with 409 SLOT_UNAVAILABLE over an active booking.

    The area row is locked for the check and the insert: booking writers lock the same row, so a booking and a
    block cannot both pass their overlap checks concurrently.
    """
    if end_time <= start_time:
        raise ValidationFailed({"endTime": ["Must be after `startTime`."]})
    with transaction.atomic():
        area = Area.objects.select_for_update().select_related("club").get(pk=area.pk)
        conflicts = slot_conflicts(area, start_time, end_time)
        if conflicts:
            raise ApiError(
                "The area has an active booking in that time.",
                code="SLOT_UNAVAILABLE",
                status=409,
                details={"conflicts": conflicts},
            )
        block = AreaBlock.objects.create(
            organization=organization,
            club_id=area.club_id,
            area=area,
            start_time=start_time,
            end_time=end_time,
            reason=reason,
        )
        emit(organization, "area_block.created", present_block(block.pk))
        emit_availability_changed(area, start_time, end_time, cause="block")
    return block


def delete_block(block: AreaBlock) -> None:
    """Unblock: the block is removed and its time becomes bookable again."""
    with transaction.atomic():
        area = Area.objects.select_for_update().select_related("club").get(pk=block.area_id)
        if not AreaBlock.objects.filter(pk=block.pk).exists():  # a concurrent unblock got there first
            raise NotFound()
        data = present_block(block.pk)
        block.delete()
        emit(area.organization_id, "area_block.deleted", data)
        emit_availability_changed(area, block.start_time, block.end_time, cause="block")


# --- Availability --------------------------------------------------------------------------------------------

MAX_AVAILABILITY_DAYS = 14
MAX_AVAILABILITY_MINUTES = MAX_AVAILABILITY_DAYS * 24 * 60

# Instants a club clock can always represent, with a day's margin for "24:00" and overnight hours.
EARLIEST_INSTANT = dt.datetime(1900, 1, 1, tzinfo=dt.UTC)
LATEST_INSTANT = dt.datetime(9999, 12, 1, tzinfo=dt.UTC)


def check_instant_range(field: str, value: dt.datetime | None) -> None:
    """A 400 on `field` for an instant no club clock can represent (converting it would overflow)."""
    if value is not None and not EARLIEST_INSTANT <= value <= LATEST_INSTANT:
        raise ValidationFailed({field: ["Must be between 1900-01-01 and 9999-12-01."]})


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

    Busy time is an active area booking, a block or an active class placed in the area. Three queries in all,
    whatever the number of areas. Rows are ordered by area (position, id), then start time.
    """
    from apps.bookings.choices import ACTIVE_BOOKING_STATUSES, BookingType
    from apps.bookings.models import Booking
    from apps.classes.choices import ClassStatus
    from apps.classes.models import ClassOccurrence

    if not_before is not None and not_before > window_start:
        window_start = not_before
    if not areas or window_end <= window_start:
        return []

    tz = club_tz(club)
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

    area_ids = [a.id for a in areas]
    busy: dict[int, list[tuple]] = {a.id: [] for a in areas}
    overlap = {"area_id__in": area_ids, "start_time__lt": window_end, "end_time__gt": window_start}
    rows = list(
        Booking.objects.filter(type=BookingType.AREA, status__in=ACTIVE_BOOKING_STATUSES, **overlap).values_list(
            "area_id", "start_time", "end_time"
        )
    )
    rows += list(AreaBlock.objects.filter(**overlap).values_list("area_id", "start_time", "end_time"))
    rows += list(
        ClassOccurrence.objects.filter(status=ClassStatus.ACTIVE, **overlap).values_list(
            "area_id", "start_time", "end_time"
        )
    )
    for area_id, start, end in rows:
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
