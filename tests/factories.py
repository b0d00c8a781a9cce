"""Shared factories (factory_boy) for the rows tests write straight to the database; the API is what tests exercise.

Every factory takes `organization=` (tenancy is explicit in every test) and fills the rest with plain defaults;
related rows come from the same organization. The `make_*` functions keep the short call of the common case
(`make_class(organization, club, start=...)`) and are the factories underneath.
"""

import copy
import datetime as dt
from decimal import Decimal

import factory
from django.utils import timezone

from apps.billing.models import Plan
from apps.classes.models import ClassOccurrence, ClassType
from apps.clubs.models import Area, Club
from apps.contacts.models import Contact
from apps.instructors.models import Instructor
from apps.memberships.models import Membership
from apps.transactions.models import Transaction

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
ALL_DAY = {day: [["08:00", "22:00"]] for day in WEEKDAYS}
SAME_ORGANIZATION = factory.SelfAttribute("..organization")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")
    timezone = "Europe/Madrid"
    opening_hours = factory.LazyFunction(lambda: copy.deepcopy(ALL_DAY))


def first_club(organization) -> Club:
    """The organization's first club, made when it has none (rows of one test usually share their club)."""
    return Club.objects.filter(organization=organization).order_by("id").first() or ClubFactory(
        organization=organization
    )


class AreaFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Area

    club = factory.SubFactory(ClubFactory, organization=SAME_ORGANIZATION)
    name = factory.Sequence(lambda n: f"Court {n}")


class ContactFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Contact

    first_name = factory.Sequence(lambda n: f"Person{n}")
    email = factory.Sequence(lambda n: f"person{n}@example.com")


class PlanFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Plan

    class Params:
        scopes = ("classes",)
        class_types = ()

    name = "Monthly unlimited"
    price = Decimal("49.00")
    valid_for = factory.LazyAttribute(lambda o: {"scopes": list(o.scopes), "classTypes": list(o.class_types)})


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    contact = factory.SubFactory(ContactFactory, organization=SAME_ORGANIZATION)
    plan = factory.SubFactory(PlanFactory, organization=SAME_ORGANIZATION)
    start_date = factory.LazyFunction(lambda: timezone.now().date() - dt.timedelta(days=10))
    status = "active"


class ClassTypeFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ClassType

    name = "Yoga"


class ClassFactory(factory.django.DjangoModelFactory):
    """A class occurrence, by default in three days for `minutes` (60), priced and with 10 seats (`bare=True`: no
    price, seat limit or sport)."""

    class Meta:
        model = ClassOccurrence

    class Params:
        minutes = 60
        bare = factory.Trait(price_before_tax=None, max_capacity=None, sport=None)

    club = factory.LazyAttribute(lambda o: first_club(o.organization))
    name = "Yoga flow"
    start_time = factory.LazyFunction(lambda: (timezone.now() + dt.timedelta(days=3)).replace(microsecond=0))
    end_time = factory.LazyAttribute(lambda o: o.start_time + dt.timedelta(minutes=o.minutes))
    price_before_tax = Decimal("10.00")
    max_capacity = 10
    sport = "yoga"


class InstructorFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Instructor

    contact = factory.SubFactory(ContactFactory, organization=SAME_ORGANIZATION)


class TransactionFactory(factory.django.DjangoModelFactory):
    """An unpaid booking charge of 10.00, now."""

    class Meta:
        model = Transaction

    type = "charge"
    source_type = "booking"
    description = "Court"
    amount = Decimal("10.00")
    occurred_at = factory.LazyFunction(timezone.now)


def make_club(organization, **fields) -> Club:
    return ClubFactory(organization=organization, **fields)


def make_area(organization, club=None, **fields) -> Area:
    return AreaFactory(organization=organization, club=club or make_club(organization), **fields)


def make_contact(organization, first_name=None, **fields) -> Contact:
    if first_name is not None:
        fields["first_name"] = first_name
    return ContactFactory(organization=organization, **fields)


def make_plan(organization, name="Monthly unlimited", **fields) -> Plan:
    return PlanFactory(organization=organization, name=name, **fields)


def make_membership(organization, contact, plan=None, **fields) -> Membership:
    if plan is not None:
        fields["plan"] = plan
    return MembershipFactory(organization=organization, contact=contact, **fields)


def make_class_type(organization, name="Yoga", **fields) -> ClassType:
    return ClassTypeFactory(organization=organization, name=name, **fields)


def make_class(organization, club=None, *, start=None, **fields) -> ClassOccurrence:
    """`make_class(organization, club, start=..., minutes=90, name=...)`; `club` defaults to the first one."""
    if club is not None:
        fields["club"] = club
    if start is not None:
        fields["start_time"] = start
    return ClassFactory(organization=organization, **fields)


def make_instructor(organization, first_name, last_name=None, *, email=None, **fields) -> Instructor:
    """An instructor whose contact is `first_name last_name` (no e-mail unless given)."""
    contact = make_contact(organization, first_name, last_name=last_name, email=email)
    return InstructorFactory(organization=organization, contact=contact, **fields)


def make_transaction(organization, occurred_at, amount="10.00", **fields) -> Transaction:
    """A transaction at `occurred_at` (a datetime, or ISO 8601 text with its offset) of `amount` ("12.10")."""
    if isinstance(occurred_at, str):
        occurred_at = dt.datetime.fromisoformat(occurred_at)
    return TransactionFactory(organization=organization, occurred_at=occurred_at, amount=Decimal(amount), **fields)
