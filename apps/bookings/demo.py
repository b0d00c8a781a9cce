"""Demo class bookings, a full class with a waitlist, and a few check-ins (area bookings come from `area_demo`)."""

from django.utils import timezone

from apps.classes.choices import ClassStatus
from apps.classes.models import ClassOccurrence
from apps.contacts.choices import ContactStatus
from apps.contacts.models import Contact

from . import class_services
from .area_demo import seed_area_bookings
from .checkins import check_in_booking
from .choices import OPEN_BOOKING_STATUSES
from .models import Booking


def _as_list(value) -> list:
    if isinstance(value, dict):
        return list(value.values())
    return list(value or [])


def _book(organization, occurrence, contact, membership=None):
    """Book unless the contact already holds a seat (idempotent); a full class is skipped quietly."""
    try:
        return class_services.book_into_class(
            organization=organization, occurrence=occurrence, contact=contact, membership=membership, source="admin"
        )
    except class_services.AlreadyBooked as seeded:
        return Booking.objects.get(pk=seeded.details["bookingId"])
    except class_services.ClassFull:
        return None


def seed(organization, ctx: dict) -> None:
    """Idempotent. Books demo contacts into upcoming classes, fills `ctx["full_class"]` with a 2-entry waitlist and
    checks in a couple of bookings. Puts `ctx["class_bookings"]`."""
    seed_area_bookings(organization, ctx)
    contacts = _as_list(ctx.get("contacts")) or list(
        Contact.objects.filter(organization=organization, status=ContactStatus.ACTIVE).order_by("id")[:12]
    )
    if not contacts:
        return
    now = timezone.now()
    classes = [
        c
        for c in _as_list(ctx.get("classes"))
        or ClassOccurrence.objects.filter(organization=organization, start_time__gt=now).order_by("start_time")[:6]
        if c.status == ClassStatus.ACTIVE and c.start_time > now
    ]
    full_class = ctx.get("full_class")
    memberships = {m.contact_id: m for m in _as_list(ctx.get("memberships"))}
    bookings = []

    for index, occurrence in enumerate(c for c in classes[:4] if not full_class or c.pk != full_class.pk):
        for contact in contacts[index : index + 3]:
            booking = _book(organization, occurrence, contact, memberships.get(contact.pk))
            if booking is not None:
                bookings.append(booking)

    if full_class is not None and full_class.status == ClassStatus.ACTIVE:
        seats = full_class.max_capacity or 4
        waiting = contacts[seats : seats + 2]
        for contact in contacts[:seats]:
            booking = _book(organization, full_class, contact)
            if booking is not None:
                bookings.append(booking)
        for contact in waiting:
            try:
                class_services.join_waitlist(organization=organization, occurrence=full_class, contact=contact)
            except (class_services.AlreadyBooked, class_services.AlreadyOnWaitlist):
                continue  # seeded before
            except class_services.ClassNotFull:
                break

    for booking in bookings[:2]:
        if booking.status in OPEN_BOOKING_STATUSES:
            check_in_booking(organization=organization, booking=booking, source="admin")
    ctx["class_bookings"] = bookings
