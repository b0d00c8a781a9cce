"""Query parameters of the events list and of an event's bookings."""

from django.db.models.functions import Lower

from apps.api.filtersets import ChoiceListFilter, DateWindow, IntegerFilter, Ordering, PlatformFilterSet, SearchFilter
from apps.bookings.filters import BOOKING_STATUSES

from .choices import EventStatus


class EventFilterSet(PlatformFilterSet):
    status = ChoiceListFilter("status", choices=EventStatus, help_text="Comma list: draft, published, cancelled.")
    clubId = IntegerFilter("club_id")
    q = SearchFilter("name", "description", help_text="Case-insensitive substring of the name or the description.")

    date_window = DateWindow(
        "start_time",
        club_clock=True,
        start_help="Date (club clock) or date-time; on startTime, inclusive.",
        end_help="Date (club clock) or date-time; on startTime, inclusive.",
    )
    ordering = Ordering(
        {"startTime": "start_time", "name": Lower("name"), "createdAt": "created_at"},
        default="startTime",
        help_text="`startTime` (default), `name`, `createdAt`; `-` for descending.",
    )


class EventBookingFilterSet(PlatformFilterSet):
    status = ChoiceListFilter(
        "status", choices=BOOKING_STATUSES, help_text="Comma list of pending, confirmed, checked_in, cancelled."
    )

    ordering = Ordering(
        {"createdAt": "created_at"},
        default="createdAt",
        help_text="`createdAt` (default); `-` for descending.",
    )
