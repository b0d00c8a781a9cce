"""Object builders shared by the class-booking and check-in tests (and their contract cases)."""

from decimal import Decimal

from django.utils import timezone

from apps.bookings.models import Booking, CheckIn, WaitlistEntry
from apps.classes.models import ClassOccurrence
from tests.factories import first_club, make_class, make_contact


def make_class_booking(occurrence, contact=None, **fields):
    contact = contact if contact is not None else make_contact(occurrence.organization)
    defaults = {
        "type": "class",
        "status": "confirmed",
        "start_time": occurrence.start_time,
        "end_time": occurrence.end_time,
        "entrance_method": "direct_payment",
        "payment_status": "unpaid",
        "payment_amount": Decimal("12.10"),
        "source": "api",
    }
    defaults.update(fields)
    return Booking.objects.create(
        organization=occurrence.organization,
        club=occurrence.club,
        class_occurrence=occurrence,
        contact=contact,
        **defaults,
    )


def make_waitlist_entry(occurrence, contact=None, **fields):
    contact = contact or make_contact(occurrence.organization)
    last = WaitlistEntry.objects.filter(class_occurrence=occurrence).count()
    fields.setdefault("position", last + 1)
    return WaitlistEntry.objects.create(
        organization=occurrence.organization, class_occurrence=occurrence, contact=contact, **fields
    )


def make_checkin(organization, *, club=None, contact=None, **fields):
    club = club or first_club(organization)
    contact = contact or make_contact(organization)
    fields.setdefault("method", "membership")
    fields.setdefault("checked_in_at", timezone.now())
    return CheckIn.objects.create(organization=organization, club=club, contact=contact, **fields)


def contract_class(organization):
    """The one class a contract case's path names (stable across calls of setup and list_rows)."""
    existing = ClassOccurrence.objects.filter(organization=organization, name="Contract class").first()
    return existing or make_class(organization, name="Contract class", max_capacity=None)
