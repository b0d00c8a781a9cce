"""Fixtures of the classes tests: instructors, a class type, and helpers to create classes through the API."""

import datetime as dt

import pytest

from apps.bookings.models import Booking, WaitlistEntry
from apps.classes.models import ClassType
from apps.instructors.models import InstructorType
from tests import factories
from tests.factories import make_class


def make_instructor(organization, first_name="Iris", email="iris@example.com"):
    coach, _ = InstructorType.objects.get_or_create(organization=organization, name="Coach")
    return factories.make_instructor(organization, first_name, "Coach", email=email, type=coach, sports=["yoga"])


def make_occurrence(organization, club=None, **fields):
    """A bare class named "Yoga" on 2031-03-03 at 17:00 UTC, in `club` or the organization's first."""
    fields.setdefault("name", "Yoga")
    fields.setdefault("start_time", dt.datetime(2031, 3, 3, 17, 0, tzinfo=dt.UTC))
    return make_class(organization, club, bare=True, **fields)


def book(occurrence, contact, status="confirmed"):
    return Booking.objects.create(
        organization=occurrence.organization,
        type="class",
        status=status,
        club=occurrence.club,
        class_occurrence=occurrence,
        contact=contact,
        start_time=occurrence.start_time,
        end_time=occurrence.end_time,
    )


def wait(occurrence, contact, status="pending", position=1):
    return WaitlistEntry.objects.create(
        organization=occurrence.organization,
        class_occurrence=occurrence,
        contact=contact,
        position=position,
        status=status,
    )


def class_body(club, **extra):
    """The body of POST /classes for a one-off class (2031, Madrid 18:00-19:00), with `extra` fields."""
    return {
        "clubId": club.id,
        "name": "Evening Yoga",
        "startTime": "2031-03-03T18:00:00+01:00",
        "endTime": "2031-03-03T19:00:00+01:00",
        **extra,
    }


@pytest.fixture
def instructor(organization):
    return make_instructor(organization)


@pytest.fixture
def class_type(organization):
    return ClassType.objects.create(organization=organization, name="Yoga", slug="yoga", max_party_size=3)


@pytest.fixture
def create_class(api, club):
    """create_class(**body) -> response of POST /classes with sensible defaults (2031, Madrid 18:00-19:00)."""

    def create(expect=201, **body):
        payload = {
            "clubId": club.id,
            "name": "Evening Yoga",
            "startTime": "2031-03-03T18:00:00+01:00",
            "endTime": "2031-03-03T19:00:00+01:00",
        }
        payload.update(body)
        payload = {k: v for k, v in payload.items() if v is not ...}
        response = api.post("/v1/platform/classes", payload, format="json")
        assert response.status_code == expect, response.content
        return response.json()

    return create
