"""Demo court bookings today and tomorrow (called by apps/bookings/demo.py after the class bookings' module)."""

import datetime as dt

from apps.api.exceptions import ApiError
from apps.clubs.models import Area
from apps.contacts.choices import ContactStatus
from apps.contacts.models import Contact
from apps.kernel import clock

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

# The rest of the demo network, by club slug and court name: (day offset, local start, minutes, club, court,
# contact index). Offers and the marketplace pages skip these times.
NETWORK_SLOTS = [
    (0, "19:00", 90, "valencia-playa", "Padel 1", 2),
    (1, "10:00", 60, "valencia-playa", "Padel 3", 4),
    (1, "18:30", 90, "valencia-playa", "Padel 2", 6),
    (0, "20:00", 60, "sevilla-triana", "Padel 1", 7),
    (1, "09:00", 60, "sevilla-triana", "Tennis 1", 8),
    (1, "18:00", 90, "lisboa-belem", "Padel 1", 10),
    (2, "11:00", 60, "lisboa-belem", "Padel 2", 1),
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
    by_name = {(court.club.slug, court.name): court for court in courts}
    slots = [
        (day, hhmm, minutes, court, contact_index, players, status)
        for day, hhmm, minutes, court_index, contact_index, players, status in SLOTS
        for court in [courts[court_index % len(courts)]]
    ] + [
        (day, hhmm, minutes, by_name[(slug, name)], contact_index, [], BookingStatus.CONFIRMED)
        for day, hhmm, minutes, slug, name, contact_index in NETWORK_SLOTS
        if (slug, name) in by_name
    ]
    for day, hhmm, minutes, area, contact_index, players, status in slots:
        contact = contacts[contact_index % len(contacts)]
        tz = clock.zone_of(area.club)
        local_day = clock.today(tz) + dt.timedelta(days=day)
        hour, minute = map(int, hhmm.split(":"))
        start = clock.wall_time(local_day, dt.time(hour, minute), tz)
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
