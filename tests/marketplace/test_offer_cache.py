"""Identical offer searches reuse a cached result, and every kind of write an offer depends on makes the next
search see it at once: bookings (API and partner), blocks, classes, courts, clubs, pricing rules, organizations."""

import datetime as dt
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.classes.models import ClassOccurrence
from apps.contacts.models import Contact
from apps.occupancy.models import AreaBlock
from apps.pricing.models import PricingRule

from .conftest import OFFERS, book, future_weekday, wall

pytestmark = pytest.mark.usefixtures("one_minute")  # a cached answer is one minute's


def search(public, day, **body):
    body = {"location": "Madrid", "date": day.isoformat(), "earliestTime": "09:00", "latestTime": "10:00", **body}
    response = public.post(OFFERS, body, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def times(body):
    return [offer["time"] for offer in body["data"]]


@pytest.fixture
def day():
    return future_weekday(2)


@pytest.fixture
def court(make_listed_club):
    return make_listed_club("Sol Padel", courts=1).areas.get()


def test_an_identical_search_is_answered_from_the_cache(public, court, day):
    first = search(public, day)
    with CaptureQueriesContext(connection) as queries:
        again = search(public, day)
    assert again == first and len(queries) == 0
    assert search(public, day, latestTime="09:30") != first  # other inputs: computed


@pytest.mark.parametrize("kind", ["booking", "block", "class"])
def test_what_occupies_a_court_shows_at_once(public, court, day, kind):
    assert times(search(public, day)) == ["09:00", "09:30", "10:00"]
    start = wall(day, "09:00")
    if kind == "booking":
        book(court, start, 60)
    elif kind == "block":
        AreaBlock.objects.create(
            organization_id=court.organization_id, club_id=court.club_id, area=court, start_time=start,
            end_time=start + dt.timedelta(hours=1),
        )  # fmt: skip
    else:
        ClassOccurrence.objects.create(
            organization_id=court.organization_id, club_id=court.club_id, area=court, name="Clinic",
            start_time=start, end_time=start + dt.timedelta(hours=1),
        )  # fmt: skip
    assert times(search(public, day)) == ["10:00"]


def test_a_booking_through_the_platform_api_shows_at_once(public, client_for, court, day):
    assert "09:00" in times(search(public, day))
    api = client_for("*", court.organization)
    start = wall(day, "09:00").astimezone(dt.UTC).isoformat().replace("+00:00", "Z")
    end = wall(day, "10:00").astimezone(dt.UTC).isoformat().replace("+00:00", "Z")
    contact = Contact.objects.create(organization_id=court.organization_id, first_name="Ana")
    body = {"areaId": court.id, "startTime": start, "endTime": end, "contactId": contact.id}
    created = api.post("/v1/platform/bookings", body, format="json")
    assert created.status_code == 201, created.content
    assert "09:00" not in times(search(public, day))


def test_price_and_court_changes_show_at_once(public, court, day):
    before = search(public, day)["data"][0]["price"]
    PricingRule.objects.create(
        organization_id=court.organization_id, name="Prime", adjustment_type="set_hourly_rate", value=Decimal("99")
    )
    raised = search(public, day)["data"][0]["price"]
    assert raised != before
    court.is_active = False
    court.save()
    assert search(public, day)["total"] == 0


def test_the_cache_can_be_switched_off(public, court, day, settings):
    settings.MARKETPLACE_OFFERS_CACHE_SECONDS = 0
    search(public, day)
    with CaptureQueriesContext(connection) as queries:
        search(public, day)
    assert len(queries) > 0


def test_a_cached_answer_is_the_computed_one(public, make_listed_club, day, settings):
    """Over clubs of two time zones, busy courts, a rule priced by time of day and pages past the first club, the
    answer from the cache is byte for byte the one computed with the cache off."""
    sol = make_listed_club("Sol Padel", courts=3)
    make_listed_club("Norte Padel", 40.45, -3.69, courts=2, rate="24.50")
    make_listed_club("Canarias Padel", 40.43, -3.71, courts=2, timezone="Atlantic/Canary")
    PricingRule.objects.create(
        organization_id=sol.organization_id,
        name="Evening",
        adjustment_type="percent",
        value=Decimal("25"),
        start_minute=18 * 60,
        end_minute=22 * 60,
    )
    for court in sol.areas.all():
        book(court, wall(day, "18:30"), 90)
    searches = [
        {"earliestTime": "17:00", "latestTime": "21:00", "limit": 7, "offset": offset} for offset in (0, 9, 20)
    ] + [{"earliestTime": "08:00", "latestTime": "22:00", "durationMinutes": 90, "limit": 50}]

    settings.MARKETPLACE_OFFERS_CACHE_SECONDS = 0
    computed = [search(public, day, **body) for body in searches]
    settings.MARKETPLACE_OFFERS_CACHE_SECONDS = 60
    stored = [search(public, day, **body) for body in searches]
    with CaptureQueriesContext(connection) as queries:
        cached = [search(public, day, **body) for body in searches]

    assert len(queries) == 0
    assert cached == stored == computed
    assert all(body["data"] for body in computed) and computed[0]["total"] > 20
    assert len({offer["price"] for body in computed for offer in body["data"]}) >= 3  # two rates, the evening rule
