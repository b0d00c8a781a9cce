import datetime as dt
import itertools
import time
import types
from zoneinfo import ZoneInfo

import django_ratelimit.core
import pytest
from rest_framework.test import APIClient

from apps.bookings.models import Booking
from apps.clubs.models import Area, AreaType, Club
from apps.marketplace import freshness
from apps.organizations.models import Organization

MADRID = ZoneInfo("Europe/Madrid")
SEARCH = "/v1/public/search/clubs"
OFFERS = "/v1/public/network/search/offers"
PROFILE = "/v1/public/network/clubs/{slug}"
EVERY_DAY = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# Madrid city centre (Puerta del Sol) and points at known distances from it.
SOL = (40.4168, -3.7038)

_seq = itertools.count(1)


@pytest.fixture
def one_minute(monkeypatch):
    """The clocks of the per-address limit windows and of the offer cache's minute stand still, so that a test
    counting one window's requests, or comparing an answer with the cached one, cannot straddle a window on a
    loaded machine (where its requests may take longer than the seconds left in the current one)."""
    now = time.time()
    frozen = types.SimpleNamespace(time=lambda: now)
    monkeypatch.setattr(django_ratelimit.core, "time", frozen)
    monkeypatch.setattr(freshness, "time", frozen)


@pytest.fixture
def public():
    """A client with no credential, as any browser or app calling the marketplace."""
    return APIClient()


def wall(day: dt.date, hhmm: str, tz=MADRID) -> dt.datetime:
    hours, minutes = map(int, hhmm.split(":"))
    return dt.datetime.combine(day, dt.time(hours, minutes), tzinfo=tz)


def future_weekday(weekday: int = 2, weeks: int = 2) -> dt.date:
    """A date at least `weeks` weeks ahead falling on `weekday` (Monday 0)."""
    day = dt.date.today() + dt.timedelta(weeks=weeks)
    return day + dt.timedelta(days=(weekday - day.weekday()) % 7)


@pytest.fixture
def make_org(db):
    def make(**fields):
        n = next(_seq)
        fields.setdefault("name", f"Org {n}")
        fields.setdefault("slug", f"org-{n}")
        fields.setdefault("currency", "EUR")
        fields.setdefault("default_tax_rate", "21.00")
        fields.setdefault("timezone", "Europe/Madrid")
        fields.setdefault("plan", "pro")
        return Organization.objects.create(**fields)

    return make


@pytest.fixture
def make_listed_club(organization):
    """make_listed_club(name, lat, lng, organization_=None, courts=2, **fields): a marketplace-listed club open
    08:00-22:00 every day, with `courts` padel courts at 20.00 an hour before tax."""

    def make(name, lat=SOL[0], lng=SOL[1], organization_=None, courts=2, rate="20.00", **fields):
        org = organization_ or organization
        n = next(_seq)
        fields.setdefault("slug", f"{name.lower().replace(' ', '-')}-{n}")
        fields.setdefault("timezone", "Europe/Madrid")
        fields.setdefault("sports", ["padel"])
        fields.setdefault("opening_hours", {d: [["08:00", "22:00"]] for d in EVERY_DAY})
        fields.setdefault("marketplace_listed", True)
        fields.setdefault("city", "Madrid")
        fields.setdefault("country", "ES")
        club = Club.objects.create(organization=org, name=name, latitude=lat, longitude=lng, **fields)
        court_type, _ = AreaType.objects.get_or_create(
            organization=org, slug="padel-court", defaults={"name": "Padel court", "max_players": 4}
        )
        for i in range(courts):
            Area.objects.create(
                organization=org,
                club=club,
                area_type=court_type,
                name=f"Court {i + 1}",
                sports=list(fields["sports"][:1]),
                hourly_rate=rate,
                position=i,
            )
        return club

    return make


def book(area, start: dt.datetime, minutes: int = 60, **fields) -> Booking:
    fields.setdefault("status", "confirmed")
    return Booking.objects.create(
        organization_id=area.organization_id,
        club_id=area.club_id,
        area=area,
        type="area",
        start_time=start,
        end_time=start + dt.timedelta(minutes=minutes),
        **fields,
    )
