"""What occupies an area or a class seat at a time: the one definition, as query builders.

An area is taken by its active bookings, its blocks and the active classes placed in it. A class seat is taken by
an active class booking or by a standalone walk-in (a membership check-in into the class without a booking); the
waitlist holds the pending and notified entries. Booking conflict checks, block checks, availability and the Class
counts all read these, so the rules cannot drift apart.
"""

from django.contrib.postgres.fields import RangeBoundary
from django.db import connection
from django.db.backends.postgresql.psycopg_any import DateTimeTZRange
from django.db.models import Count, IntegerField, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce

from apps.bookings.choices import ACTIVE_BOOKING_STATUSES, ACTIVE_WAITLIST_STATUSES, BookingType, CheckInMethod
from apps.bookings.models import Booking, CheckIn, WaitlistEntry
from apps.classes.choices import ClassStatus
from apps.classes.models import ClassOccurrence
from apps.kernel.ranges import TsTzRange

from .models import AreaBlock

# --- areas ---------------------------------------------------------------------------------------------------


def _overlapping(start, end) -> dict:
    """Half-open [start, end): touching intervals do not overlap."""
    return {"start_time__lt": end, "end_time__gt": start}


def area_bookings(start, end):
    """Active area bookings overlapping [start, end) (narrow by `area=` / `area_id__in=`). On PostgreSQL the overlap
    is also stated on the range the `booking_area_no_overlap` GiST index holds: the comparisons alone bound only
    the start, so a court with a year of bookings would be read whole (tests/test_query_plans.py)."""
    queryset = Booking.objects.filter(
        type=BookingType.AREA, status__in=ACTIVE_BOOKING_STATUSES, **_overlapping(start, end)
    )
    if connection.vendor == "postgresql":
        span = TsTzRange("start_time", "end_time", RangeBoundary())
        queryset = queryset.alias(span=span).filter(span__overlap=DateTimeTZRange(start, end, "[)"))
    return queryset


def area_blocks(start, end):
    return AreaBlock.objects.filter(**_overlapping(start, end))


def area_classes(start, end):
    """Active classes overlapping [start, end); a class without an area occupies none."""
    return ClassOccurrence.objects.filter(status=ClassStatus.ACTIVE, **_overlapping(start, end))


def _ids(queryset) -> list[int]:
    return list(queryset.order_by("start_time", "id").values_list("pk", flat=True))


def booking_conflicts(area, start, end, exclude_booking_id=None) -> list[dict]:
    """`[{type: "booking", id}]` for the active bookings of `area` overlapping [start, end)."""
    bookings = area_bookings(start, end).filter(area=area)
    if exclude_booking_id:
        bookings = bookings.exclude(pk=exclude_booking_id)
    return [{"type": "booking", "id": pk} for pk in _ids(bookings)]


def area_conflicts(area, start, end, exclude_booking_id=None) -> list[dict]:
    """Everything occupying `area` in [start, end): bookings, then blocks, then classes, each by start time.
    Call with the area row locked."""
    conflicts = booking_conflicts(area, start, end, exclude_booking_id)
    conflicts += [{"type": "block", "id": pk} for pk in _ids(area_blocks(start, end).filter(area=area))]
    conflicts += [{"type": "class", "id": pk} for pk in _ids(area_classes(start, end).filter(area=area))]
    return conflicts


def busy_intervals(area_ids, start, end) -> list[tuple]:
    """`(area_id, start_time, end_time)` of everything occupying the areas in [start, end); three queries."""
    columns = ("area_id", "start_time", "end_time")
    rows = list(area_bookings(start, end).filter(area_id__in=area_ids).values_list(*columns))
    rows += list(area_blocks(start, end).filter(area_id__in=area_ids).values_list(*columns))
    rows += list(area_classes(start, end).filter(area_id__in=area_ids).values_list(*columns))
    return rows


# --- class seats ---------------------------------------------------------------------------------------------


def active_class_bookings():
    return Booking.objects.filter(type=BookingType.CLASS, status__in=ACTIVE_BOOKING_STATUSES)


def standalone_class_checkins():
    """Walk-ins on a membership into a class (no booking): they take a seat too."""
    return CheckIn.objects.filter(method=CheckInMethod.MEMBERSHIP, booking__isnull=True, class_occurrence__isnull=False)


def active_waitlist_entries():
    return WaitlistEntry.objects.filter(status__in=ACTIVE_WAITLIST_STATUSES)


def _count_per_class(queryset):
    counted = (
        queryset.filter(class_occurrence=OuterRef("pk"))
        .order_by()
        .values("class_occurrence")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(counted, output_field=IntegerField()), Value(0))


def class_seat_counts() -> dict:
    """`ClassOccurrence` annotations, one SQL subquery each: `booked_total` (active class bookings),
    `walk_in_total` (standalone walk-ins) and `waitlist_total` (pending + notified entries). A class's
    `bookedCount` is booked_total + walk_in_total."""
    return {
        "booked_total": _count_per_class(active_class_bookings()),
        "walk_in_total": _count_per_class(standalone_class_checkins()),
        "waitlist_total": _count_per_class(active_waitlist_entries()),
    }


def booked_count(occurrence_id: int) -> int:
    """Seats taken in one class occurrence (bookings plus standalone walk-ins), in one statement.

    Run it after locking the occurrence, as its own statement: it then sees every seat committed before the lock
    was granted (a subquery inside the locking SELECT itself would keep the snapshot taken before waiting).
    """
    counts = class_seat_counts()
    value = (
        ClassOccurrence.objects.filter(pk=occurrence_id)
        .annotate(booked=counts["booked_total"] + counts["walk_in_total"])
        .values_list("booked", flat=True)
        .first()
    )
    return value or 0
