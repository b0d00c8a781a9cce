import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from apps.clubs.models import Area

MADRID = ZoneInfo("Europe/Madrid")
PAGE = "/marketplace/clubs/{slug}"


@pytest.fixture
def listed_club(club):
    club.marketplace_listed = True
    club.website = "https://centre-court.example.com"
    club.phone = "+34 910 000 001"
    club.save()
    return club


@pytest.fixture
def court(organization, listed_club, area_type):
    return Area.objects.create(
        organization=organization,
        club=listed_club,
        area_type=area_type,
        name="Court 1",
        sports=["padel"],
        hourly_rate="20.00",
        position=0,
    )


@pytest.fixture
def day():
    """A day a week ahead on the Madrid clock (no test here depends on the time of day it runs)."""
    return dt.datetime.now(MADRID).date() + dt.timedelta(days=7)


def at(day: dt.date, hhmm: str) -> dt.datetime:
    hour, minute = map(int, hhmm.split(":"))
    return dt.datetime.combine(day, dt.time(hour, minute), tzinfo=MADRID)
