"""Demo classes: a few one-off classes (today, tomorrow, one with 4 seats) and a Mon/Wed/Fri 18:00 open series."""

import datetime as dt
from decimal import Decimal

from apps.clubs.choices import DayOfWeek
from apps.clubs.models import Area, Club
from apps.kernel import clock

from . import services
from .choices import EndsType, Frequency
from .models import ClassOccurrence, ClassType

SERIES_NAME = "Evening Strength"


def _first(values):
    if isinstance(values, dict):
        values = list(values.values())
    return (values or [None])[0]


def _local(club, day: dt.date, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime(day.year, day.month, day.day, hour, minute, tzinfo=clock.zone_of(club))


def seed(organization, ctx: dict) -> None:
    """Idempotent. Puts `ctx["classes"]` (upcoming one-off occurrences), `ctx["full_class"]` (capacity 4) and
    `ctx["class_series"]`."""
    club = _first(ctx.get("clubs")) or Club.objects.filter(organization=organization).order_by("id").first()
    if club is None:
        return
    room = _first([r for r in ctx.get("rooms") or [] if r.club_id == club.id]) or (
        Area.objects.filter(organization=organization, club=club).order_by("id").first()
    )
    class_types = ctx.get("class_types") or {}
    yoga = class_types.get("yoga") if isinstance(class_types, dict) else None
    yoga = yoga or _first(class_types) or ClassType.objects.filter(organization=organization).order_by("id").first()
    instructors = list(ctx.get("instructors") or [])
    today = clock.today(club)
    tomorrow = today + dt.timedelta(days=1)
    one_offs = [
        ("Lunchtime Yoga", tomorrow, 13, 12, Decimal("12.00")),
        ("Sunrise Pilates", tomorrow, 8, 10, Decimal("10.00")),
        ("Padel Clinic", today + dt.timedelta(days=2), 19, 8, Decimal("15.00")),
        ("Small Group Mobility", today + dt.timedelta(days=2), 10, 4, Decimal("9.00")),
        ("Late Stretch", today, 21, 15, None),
    ]
    classes = []
    for name, day, hour, capacity, price in one_offs:
        start = _local(club, day, hour)
        occurrence, created = ClassOccurrence.objects.get_or_create(
            organization=organization,
            name=name,
            series=None,
            defaults={
                "club": club,
                "area": room,
                "class_type": yoga,
                "start_time": start,
                "end_time": start + dt.timedelta(minutes=60),
                "max_capacity": capacity,
                "price_before_tax": price,
                "is_free": price is None,
                "sport": "yoga" if "Yoga" in name else None,
                "translations": {"es": {"name": f"{name} (ES)"}} if name == "Lunchtime Yoga" else {},
            },
        )
        if created and instructors:
            occurrence.instructors.set(instructors[:1])
        classes.append(occurrence)
    ctx["classes"] = classes
    ctx["full_class"] = next(c for c in classes if c.max_capacity == 4)

    first = ClassOccurrence.objects.filter(organization=organization, name=SERIES_NAME, series__isnull=False).first()
    if first is None:
        start = _local(club, today, 18)
        first, _ = services.create_class(
            organization,
            {
                "club": club,
                "area": room,
                "class_type": yoga,
                "name": SERIES_NAME,
                "start_time": start,
                "end_time": start + dt.timedelta(minutes=60),
                "max_capacity": 16,
                "price_before_tax": Decimal("8.00"),
                "instructor_ids": [i.pk for i in instructors[:1]],
                "recurrence": {
                    "frequency": Frequency.WEEKLY,
                    "interval": 1,
                    "days_of_week": [DayOfWeek.MONDAY, DayOfWeek.WEDNESDAY, DayOfWeek.FRIDAY],
                    "ends_type": EndsType.NEVER,
                },
            },
        )
    ctx["class_series"] = first.series
