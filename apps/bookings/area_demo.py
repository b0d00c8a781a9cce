"""Demo court bookings today and tomorrow (called by apps/bookings/demo.py after the class bookings' module)."""

import datetime as dt
from zoneinfo import ZoneInfo

from django.utils import timezone

from apps.api.exceptions import ApiError
from apps.clubs.models import Area
from apps.contacts.choices import ContactStatus
from apps.contacts.models import Contact

from .choices import ACTIVE_BOOKING_STATUSES, BookingStatus
from .models import Booking
from .services import create_area_booking

# (day offset, local start "HH:MM", minutes, court index, contact index, extra players, status)
SLOTS = [
    (0, "18:00", 90, 0, 0, [{"name": "Pablo"}, {"name": "Sara"}], BookingStatus.CONFIRMED),
    (0, "19:30", 60, 1, 1, [], BookingStatus.CONFIRMED),
    (0, "20:00", 90, 0, 3, [], BookingStatus.PENDING),
    (1, "10:00", 60, 0, 5, [{"name": "Rocio"}], BookingStatus.CONFIRMED),
    (1, "17:30", 90, 1, 9, [], BookingStatus.CONFIRMED),
    (1, "19:00", 60, 2, 11, [], BookingStatus.PENDING),
]


def seed_area_bookings(organization, ctx: dict) -> None:
    """Idempotent: a slot already booked (or otherwise taken) is skipped. Puts `ctx["area_bookings"]`."""
    courts = list(ctx.get("courts") or Area.objects.filter(organization=organization, is_active=True).order_by("id"))
    contacts = list(
        ctx.get("contacts") or Contact.objects.filter(organization=organization, status=ContactStatus.ACTIVE)
    )
    bookings = []
    if not courts or not contacts:
        ctx["area_bookings"] = bookings
        return
    for day, hhmm, minutes, court_index, contact_index, players, status in SLOTS:
        area = courts[court_index % len(courts)]
        contact = contacts[contact_index % len(contacts)]
        tz = ZoneInfo(area.club.timezone or "UTC")
        local_day = timezone.now().astimezone(tz).date() + dt.timedelta(days=day)
        hour, minute = map(int, hhmm.split(":"))
        start = dt.datetime.combine(local_day, dt.time(hour, minute), tzinfo=tz)
        end = start + dt.timedelta(minutes=minutes)
        existing = Booking.objects.filter(
            area=area, start_time=start, end_time=end, status__in=ACTIVE_BOOKING_STATUSES
        ).first()
        if existing:
            bookings.append(existing)
            continue
        try:
            bookings.append(
                create_area_booking(
                    organization=organization,
                    area=area,
                    contact=contact,
                    start_time=start,
                    end_time=end,
                    players=players,
                    status=status,
                    source="admin",
                )
            )
        except ApiError:
            continue  # taken by a class or block, or too many players for that court
    ctx["area_bookings"] = bookings
