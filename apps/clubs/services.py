"""Domain operations of clubs, areas and area types, plus opening hours and the `availability.changed` payload.

Area blocks and free time read bookings and classes, so they live in `apps.occupancy`.

Views, the admin, management commands and other apps call these; they raise `apps.api.exceptions` errors.
"""

import datetime as dt

from django.db import transaction
from django.db.models import Max

from apps.api.exceptions import DuplicateValue, ValidationFailed
from apps.domain_events.services import emit
from apps.kernel import clock, slugs
from apps.kernel.records import set_fields

from .choices import WEEKDAYS
from .models import Area, AreaType, Club

# --- Opening hours -------------------------------------------------------------------------------------------


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


def _local_instant(local_date: dt.date, wall: dt.time, tz) -> dt.datetime:
    if wall == dt.time.max:  # "24:00" is midnight at the start of the next day
        return clock.wall_time(local_date + dt.timedelta(days=1), dt.time.min, tz)
    return clock.wall_time(local_date, wall, tz)


def opening_intervals(club: Club, local_date: dt.date) -> list[tuple[dt.datetime, dt.datetime]]:
    """The club's opening intervals on `local_date` (its own calendar day) as aware UTC datetimes, in order.

    Opening hours are wall-clock times on the club's clock, so a DST change shifts their UTC instants.
    """
    if not is_club_open_on(club, local_date):
        return []
    tz = clock.zone_of(club)
    intervals = []
    for pair in _day_hours(club, local_date):
        try:
            opens, closes = _parse_hhmm(pair[0]), _parse_hhmm(pair[1])
        except (ValueError, TypeError, IndexError):
            continue  # a malformed stored interval is skipped rather than breaking every read
        start, end = _local_instant(local_date, opens, tz), _local_instant(local_date, closes, tz)
        if end > start:
            intervals.append((start, end))
    intervals.sort()
    return intervals


# --- availability.changed ------------------------------------------------------------------------------------


def availability_changed_data(area: Area, start: dt.datetime | None, end: dt.datetime | None, cause: str) -> dict:
    """The `availability.changed` payload.

    `date` is the club-local day on which the change starts; `startTime`/`endTime` bound the changed time (UTC),
    both null when the whole area changed from `date` on (area created, activated or deactivated).
    """
    club = area.club
    day = clock.local_date(start, club) if start is not None else clock.today(club)
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


def _slug_taken(holder) -> None:
    raise DuplicateValue("slug", holder)


def _save_area_type(area_type: AreaType, *, derive: bool = False, check: bool = True) -> AreaType:
    """Insert or update; a slug taken (already or by a concurrent writer) is a 409 when it was sent, or the next free
    one when derived from the name."""
    slugs.save_with_unique_slug(
        area_type,
        lambda: AreaType.objects.filter(organization_id=area_type.organization_id),
        taken=_slug_taken,
        derive_from=area_type.name if derive else None,
        fallback="area-type",
        max_length=AreaType._meta.get_field("slug").max_length,
        check=check,
    )
    return area_type


def create_area_type(organization, data: dict) -> AreaType:
    """`data`: `name`, and optionally `slug` (else derived from the name) and `max_players`."""
    slug = data.get("slug")
    area_type = AreaType(
        organization=organization, name=data["name"], slug=slug or "", max_players=data.get("max_players")
    )
    return _save_area_type(area_type, derive=not slug)


def update_area_type(area_type: AreaType, changes: dict) -> AreaType:
    """Apply `changes`; an empty or no-op PATCH writes nothing and keeps `updatedAt`."""
    changes = {field: value for field, value in changes.items() if getattr(area_type, field) != value}
    if not changes:
        return area_type
    set_fields(area_type, changes)
    return _save_area_type(area_type, check="slug" in changes)


# --- Areas ---------------------------------------------------------------------------------------------------

AREA_FIELDS = ("name", "area_type", "sports", "hourly_rate", "is_indoor", "is_active", "images", "position")


@transaction.atomic
def create_area(organization, data: dict) -> Area:
    """A new area of `data["club"]`; without a `position` it goes after the club's last area."""
    club, fields = data["club"], {k: v for k, v in data.items() if k in AREA_FIELDS}
    if fields.get("position") is None:
        last = Area.objects.filter(club=club).aggregate(m=Max("position"))["m"]
        fields["position"] = 0 if last is None else last + 1
    area = Area.objects.create(organization=organization, club=club, **fields)
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
    set_fields(area, changes)
    area.save()
    if area.is_active != was_active:
        emit_availability_changed(area, cause="area")
    return area


# --- Club clock range -----------------------------------------------------------------------------------------

# Instants a club clock can always represent, with a day's margin for "24:00" and overnight hours.
EARLIEST_INSTANT = dt.datetime(1900, 1, 1, tzinfo=dt.UTC)
LATEST_INSTANT = dt.datetime(9999, 12, 1, tzinfo=dt.UTC)


def check_instant_range(field: str, value: dt.datetime | None) -> None:
    """A 400 on `field` for an instant no club clock can represent (converting it would overflow)."""
    if value is not None and not EARLIEST_INSTANT <= value <= LATEST_INSTANT:
        raise ValidationFailed({field: ["Must be between 1900-01-01 and 9999-12-01."]})
