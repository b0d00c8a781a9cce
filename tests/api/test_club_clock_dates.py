"""A bare startDate/endDate is a whole day on each row's own club clock, for every club-bound list."""

import datetime as dt

import pytest

from tests.class_bookings.factories import make_checkin, make_class_booking
from tests.factories import make_class, make_club


@pytest.fixture
def two_clocks(organization):
    """A Madrid and a Tokyo club, each with a class booked and a check-in, at instants that fall on different
    local days: Madrid 2031-03-03 23:30 (+01:00) and Tokyo 2031-03-04 01:00 (+09:00) are 22:30 and 16:00 UTC on
    the 3rd."""
    madrid = make_club(organization, name="Madrid", timezone="Europe/Madrid")
    tokyo = make_club(organization, name="Tokyo", timezone="Asia/Tokyo")
    late_madrid = dt.datetime(2031, 3, 3, 22, 30, tzinfo=dt.UTC)
    early_tokyo = dt.datetime(2031, 3, 3, 16, 0, tzinfo=dt.UTC)
    rows = {}
    for name, club, start in (("madrid", madrid, late_madrid), ("tokyo", tokyo, early_tokyo)):
        occurrence = make_class(organization, club, start=start)
        rows[f"{name}_booking"] = make_class_booking(occurrence).pk
        rows[f"{name}_checkin"] = make_checkin(organization, club=club, checked_in_at=start).pk
    return rows


def ids(api, path):
    response = api.get(path)
    assert response.status_code == 200, response.content
    return sorted(row["id"] for row in response.json()["data"])


def test_bookings_bare_dates_on_each_club_clock(api, two_clocks):
    assert ids(api, "/v1/platform/bookings?startDate=2031-03-04&endDate=2031-03-04") == [two_clocks["tokyo_booking"]]
    assert ids(api, "/v1/platform/bookings?startDate=2031-03-03&endDate=2031-03-03") == [two_clocks["madrid_booking"]]
    # A date-time with an offset is an exact instant, whatever the clock.
    both = sorted([two_clocks["madrid_booking"], two_clocks["tokyo_booking"]])
    assert ids(api, "/v1/platform/bookings?startDate=2031-03-03T16:00:00Z&endDate=2031-03-03T22:30:00Z") == both


def test_checkins_bare_dates_on_each_club_clock(api, two_clocks):
    assert ids(api, "/v1/platform/checkins?startDate=2031-03-04&endDate=2031-03-04") == [two_clocks["tokyo_checkin"]]
    assert ids(api, "/v1/platform/checkins?endDate=2031-03-03") == [two_clocks["madrid_checkin"]]


def test_bare_end_before_start_is_400(api, two_clocks):
    for path in ("/v1/platform/bookings", "/v1/platform/checkins", "/v1/platform/classes"):
        response = api.get(f"{path}?startDate=2031-03-05&endDate=2031-03-04")
        assert response.status_code == 400
        assert "endDate" in response.json()["details"]["fields"]
