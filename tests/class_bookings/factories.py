"""Object builders shared by the class-booking and check-in tests (and their contract cases)."""

import datetime as dt
import itertools
from decimal import Decimal

from django.utils import timezone

from apps.billing.models import Plan
from apps.bookings.models import Booking, CheckIn, WaitlistEntry
from apps.classes.models import ClassOccurrence, ClassType
from apps.clubs.models import Club
from apps.contacts.models import Contact
from apps.memberships.models import Membership

_seq = itertools.count(1)


def make_club(organization, **fields):
    defaults = {"name": "Club", "slug": f"club-{next(_seq)}", "timezone": "Europe/Madrid"}
    defaults.update(fields)
    return Club.objects.create(organization=organization, **defaults)


def first_club(organization):
    return Club.objects.filter(organization=organization).order_by("id").first() or make_club(organization)


def make_class(organization, club=None, *, start=None, minutes=60, **fields):
    club = club or first_club(organization)
    start = start or (timezone.now() + dt.timedelta(days=3)).replace(microsecond=0)
    defaults = {
        "name": "Yoga flow",
        "start_time": start,
        "end_time": start + dt.timedelta(minutes=minutes),
        "price_before_tax": Decimal("10.00"),
        "max_capacity": 10,
        "sport": "yoga",
    }
    defaults.update(fields)
    return ClassOccurrence.objects.create(organization=organization, club=club, **defaults)


def make_class_type(organization, name="Yoga", **fields):
    return ClassType.objects.create(organization=organization, name=name, **fields)


def make_contact(organization, first_name=None, **fields):
    n = next(_seq)
    fields.setdefault("email", f"person{n}@example.com")
    return Contact.objects.create(organization=organization, first_name=first_name or f"Person{n}", **fields)


def make_plan(organization, name="Monthly unlimited", *, scopes=("classes",), class_types=(), **fields):
    defaults = {"price": Decimal("49.00"), "valid_for": {"scopes": list(scopes), "classTypes": list(class_types)}}
    defaults.update(fields)
    return Plan.objects.create(organization=organization, name=name, **defaults)


def make_membership(organization, contact, plan=None, **fields):
    plan = plan or make_plan(organization)
    defaults = {"start_date": timezone.now().date() - dt.timedelta(days=10), "status": "active"}
    defaults.update(fields)
    return Membership.objects.create(organization=organization, contact=contact, plan=plan, **defaults)


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
