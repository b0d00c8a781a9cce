"""`seed_demo` builds a marketplace network: listed clubs in several cities (one not listed), courts with rates,
pricing rules and bookings, so the marketplace pages have real free times and prices; it stays idempotent."""

import datetime as dt
import io
from zoneinfo import ZoneInfo

import pytest
from django.core.management import call_command

from apps.bookings.models import Booking
from apps.clubs.models import Area, Club
from apps.pricing.models import PricingRule

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _development_configuration(settings):
    settings.DEBUG = True  # seed_demo refuses to run with DEBUG off unless told (tests/deployment)


def seed():
    call_command("seed_demo", stdout=io.StringIO(), stderr=io.StringIO())


def counts():
    return {model.__name__: model.objects.count() for model in (Club, Area, PricingRule, Booking)}


def test_seed_demo_twice_builds_the_network_once(client):
    seed()
    first = counts()
    seed()
    assert counts() == first

    listed = Club.objects.filter(marketplace_listed=True)
    assert {c.city for c in listed} >= {"Madrid", "Barcelona", "Valencia", "Sevilla", "Lisboa"}
    assert Club.objects.filter(marketplace_listed=False, slug="bilbao-ria").exists()
    assert {c.timezone for c in listed} == {"Europe/Madrid", "Europe/Lisbon"}
    assert PricingRule.objects.filter(is_active=True).count() == 4
    network_bookings = Booking.objects.filter(club__slug__in=["valencia-playa", "sevilla-triana", "lisboa-belem"])
    assert network_bookings.count() >= 3

    tomorrow = dt.datetime.now(ZoneInfo("Europe/Madrid")).date() + dt.timedelta(days=1)
    page = client.get(f"/marketplace/clubs/valencia-playa?locale=es&date={tomorrow.isoformat()}")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Demo Valencia Playa" in html and "Padel 3" in html and "data-time=" in html
    assert client.get("/marketplace/clubs/bilbao-ria").status_code == 404
    assert client.get("/marketplace/clubs/lisboa-belem/classes.ics").status_code == 200
