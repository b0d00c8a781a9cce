"""Query-parameter helpers shared by list endpoints: date windows, ordering, comma lists, booleans."""

import datetime as dt

from django.db.models import Q
from django.utils.dateparse import parse_date, parse_datetime

from apps.kernel import clock

from .exceptions import ValidationFailed

MAX_INT = 2**63 - 1  # the database's bigint range; anything beyond is a 400, never a database error
# Date-times the service accepts at all: converting anything closer to datetime.min/max to another clock overflows.
EARLIEST = dt.datetime(1900, 1, 1, tzinfo=dt.UTC)
LATEST = dt.datetime(9999, 12, 1, tzinfo=dt.UTC)
RANGE_MESSAGE = "Must be between 1900-01-01 and 9999-12-01."


def in_range(value: dt.datetime) -> bool:
    """Whether an aware date-time lies in the range the service handles (no overflow on any clock)."""
    try:
        return EARLIEST <= value <= LATEST
    except OverflowError:
        return False


def bool_value(name, raw):
    if raw in (None, ""):
        return None
    if raw in ("true", "false"):
        return raw == "true"
    raise ValidationFailed({name: ["Must be `true` or `false`."]})


def parse_int(params, name):
    return int_value(name, params.get(name))


def int_value(name, raw):
    if raw in (None, ""):
        return None
    try:
        value = int(raw)
    except ValueError:
        raise ValidationFailed({name: ["Must be an integer."]})
    if abs(value) > MAX_INT:
        raise ValidationFailed({name: [f"Must be between {-MAX_INT} and {MAX_INT}."]})
    return value


def enum_list_value(name, raw, allowed) -> list[str] | None:
    """`status=confirmed,pending` as a list, each value checked against `allowed`."""
    if raw in (None, ""):
        return None
    values = [v.strip() for v in raw.split(",") if v.strip()]
    bad = [v for v in values if v not in allowed]
    if bad:
        raise ValidationFailed({name: [f"Unknown value(s): {', '.join(bad)}. Allowed: {', '.join(allowed)}."]})
    return values


def _parse_bound(params, name, tz: dt.tzinfo, end: bool):
    raw = params.get(name)
    if raw in (None, ""):
        return None
    if len(raw) == 10:
        try:
            day = parse_date(raw)
        except ValueError:  # well-formed but impossible, e.g. 2031-13-01
            day = None
        if day is None:
            raise ValidationFailed({name: ["Must be a date (YYYY-MM-DD) or a date-time with an offset."]})
        value = clock.wall_time(day, dt.time.min, tz)
        if not in_range(value):
            raise ValidationFailed({name: [RANGE_MESSAGE]})
        if end:
            value = clock.wall_time(day + dt.timedelta(days=1), dt.time.min, tz)
        return value, end
    try:
        value = parse_datetime(raw.replace(" ", "+"))
    except ValueError:
        value = None
    if value is None or value.tzinfo is None:
        raise ValidationFailed({name: ["Must be a date (YYYY-MM-DD) or a date-time with an offset."]})
    if not in_range(value):
        raise ValidationFailed({name: [RANGE_MESSAGE]})
    return value, False


def date_window(params, tz: dt.tzinfo | str = dt.UTC, start="startDate", end="endDate"):
    """`(from_inclusive, to, to_is_exclusive)` from `startDate`/`endDate`, both inclusive.

    A bare date covers the whole day on `tz` (the club's clock for club-bound resources, UTC otherwise); a
    date-time with an offset is an exact instant. `endDate < startDate` is a 400.
    Returns `(lower, upper, upper_exclusive)`; any part may be None.
    """
    if isinstance(tz, str):
        tz = clock.zone(tz)
    lower = _parse_bound(params, start, tz, end=False)
    upper = _parse_bound(params, end, tz, end=True)
    lower_value = lower[0] if lower else None
    upper_value, upper_exclusive = upper if upper else (None, False)
    if lower_value and upper_value:
        invalid = upper_value <= lower_value if upper_exclusive else upper_value < lower_value
        if invalid:
            raise ValidationFailed({end: [f"`{end}` must not be before `{start}`."]})
    return lower_value, upper_value, upper_exclusive


def window_condition(field: str, window) -> Q:
    lower, upper, upper_exclusive = window
    condition = Q()
    if lower is not None:
        condition &= Q(**{f"{field}__gte": lower})
    if upper is not None:
        condition &= Q(**{f"{field}__lt" if upper_exclusive else f"{field}__lte": upper})
    return condition


def apply_window(queryset, field: str, window):
    return queryset.filter(window_condition(field, window))


def apply_day_window(queryset, params, tz: dt.tzinfo | str, field: str):
    """`startDate`/`endDate` on a date column (`issueDate`): a bare date is that day; a date-time with an offset is
    the day it falls on at `tz` (the organization's clock, on which such dates are kept). Both inclusive."""
    if isinstance(tz, str):
        tz = clock.zone(tz)
    lower, upper, upper_exclusive = date_window(params, tz)
    lower_day, upper_day = (None if bound is None else bound.astimezone(tz).date() for bound in (lower, upper))
    return apply_window(queryset, field, (lower_day, upper_day, upper_exclusive))


def apply_club_clock_window(queryset, params, organization, field: str, club_timezone="club__timezone"):
    """`startDate`/`endDate` on `field` for club-bound rows: a bare date is a whole day on EACH row's own club
    clock, a date-time with an offset an exact instant. The clocks are read from the organization's clubs (one
    small query, only when a bare date is sent)."""
    default_tz = organization.timezone
    window = date_window(params, default_tz)  # validates both bounds whatever the clock
    if window[0] is None and window[1] is None:
        return queryset
    if not any(len(params.get(name) or "") == 10 for name in ("startDate", "endDate")):
        return apply_window(queryset, field, window)
    zones = sorted(_clock_zones(queryset.model, club_timezone, organization))
    if len(zones) <= 1:
        return apply_window(queryset, field, date_window(params, zones[0] if zones else default_tz))
    condition = Q()
    for zone in zones:
        condition |= Q(**{club_timezone: zone}) & window_condition(field, date_window(params, zone))
    return queryset.filter(condition)


def _clock_zones(model, club_timezone: str, organization) -> set[str]:
    """The time zones the rows' clubs may have: those of the organization's clubs, a superset of the zones of the
    matching rows that yields the same window, read from a few clubs instead of from every matching row."""
    *path, column = club_timezone.split("__")
    for name in path:
        model = model._meta.get_field(name).related_model
    return set(model._base_manager.filter(organization=organization).values_list(column, flat=True).distinct())


def apply_ordering(queryset, params, allowed: dict, default: str):
    """`ordering=field,-other`: API field names mapped to model fields (or expressions) via `allowed`; ties broken
    by id."""
    raw = params.get("ordering") or default
    order_by = []
    for part in (p.strip() for p in raw.split(",") if p.strip()):
        descending = part.startswith("-")
        name = part.lstrip("-")
        if name not in allowed:
            raise ValidationFailed({"ordering": [f"Unknown ordering field `{name}`. Allowed: {', '.join(allowed)}."]})
        target = allowed[name]
        if isinstance(target, str):
            order_by.append(("-" if descending else "") + target)
        else:
            order_by.append(target.desc() if descending else target.asc())
    if not any(isinstance(o, str) and o.lstrip("-") == "id" for o in order_by):
        first = order_by[0] if order_by else None
        descending_first = (isinstance(first, str) and first.startswith("-")) or getattr(first, "descending", False)
        order_by.append("-id" if descending_first else "id")
    return queryset.order_by(*order_by)
