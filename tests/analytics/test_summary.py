"""Analytics totals (`GET /analytics/summary`) through the HTTP API: each total with known data, the club filter,
tenancy, the period's bounds, no person in the body, and a query count that does not grow with the data."""

import datetime as dt
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.bookings.models import Booking
from apps.contacts.models import Contact
from tests.class_bookings.factories import make_checkin, make_class_booking
from tests.factories import make_class, make_club, make_contact, make_membership, make_plan, make_transaction

URL = "/v1/platform/analytics/summary"
PERIOD = {"startDate": "2026-03-02", "endDate": "2026-03-08"}
BEFORE = dt.datetime.fromisoformat("2026-01-15T10:00:00+01:00")


def _at(text):
    return dt.datetime.fromisoformat(text)


def _area_booking(organization, area, start, **fields):
    return Booking.objects.create(
        organization=organization,
        type="area",
        club=area.club,
        area=area,
        start_time=start,
        end_time=start + dt.timedelta(hours=1),
        **fields,
    )


@pytest.fixture
def activity(organization, other_organization, club, area):
    second = make_club(organization, name="Beach", timezone="Europe/Madrid")
    zelda = make_contact(organization, first_name="Zelda", last_name="Quartermain", email="zelda@secret.example")

    yoga = make_class(organization, club, start=_at("2026-03-03T10:00:00+01:00"), max_capacity=10)
    for _ in range(3):
        make_class_booking(yoga)
    make_class_booking(yoga, zelda, status="checked_in")
    make_class_booking(yoga, status="cancelled")
    beach = make_class(organization, second, start=_at("2026-03-04T10:00:00+01:00"), max_capacity=10)
    make_class_booking(beach)
    cancelled = make_class(
        organization, club, start=_at("2026-03-05T10:00:00+01:00"), max_capacity=10, status="cancelled"
    )
    make_class_booking(cancelled, status="cancelled")
    open_class = make_class(organization, club, start=_at("2026-03-06T10:00:00+01:00"), max_capacity=None)
    make_class_booking(open_class)
    make_class_booking(open_class)
    later = make_class(organization, club, start=_at("2026-03-09T00:30:00+01:00"), max_capacity=10)
    make_class_booking(later)  # after the period on Madrid's clock, though 8 March in UTC

    _area_booking(organization, area, _at("2026-03-05T18:00:00+01:00"), contact=zelda)
    _area_booking(organization, area, _at("2026-03-05T19:00:00+01:00"), status="cancelled")

    make_checkin(organization, club=club, contact=zelda, checked_in_at=_at("2026-03-03T09:55:00+01:00"))
    make_checkin(organization, club=club, checked_in_at=_at("2026-03-08T23:59:00+01:00"))
    make_checkin(organization, club=second, checked_in_at=_at("2026-03-04T09:55:00+01:00"))
    make_checkin(organization, club=club, checked_in_at=_at("2026-03-01T23:59:00+01:00"))

    plan = make_plan(organization)
    members = [make_contact(organization) for _ in range(7)]
    day = dt.date.fromisoformat
    make_membership(organization, members[0], plan, start_date=day("2026-01-01"))
    make_membership(organization, zelda, plan, start_date=day("2026-03-04"), club=club)
    make_membership(organization, members[2], plan, start_date=day("2025-01-01"), end_date=day("2026-03-01"))
    make_membership(
        organization,
        members[3],
        plan,
        start_date=day("2025-06-01"),
        status="cancelled",
        cancelled_at=_at("2026-03-05T10:00:00+01:00"),
        club=club,
    )
    make_membership(
        organization, members[4], plan, start_date=day("2025-06-01"), status="cancelled", cancelled_at=BEFORE
    )
    make_membership(
        organization, members[5], plan, start_date=day("2025-06-01"), cancel_at=day("2026-03-31"), cancelled_at=BEFORE
    )
    make_membership(organization, members[6], plan, start_date=day("2026-03-09"))

    make_transaction(organization, "2026-03-03T10:00:00+01:00", "20.00", club=club, contact=zelda)
    outside = make_transaction(
        organization,
        "2026-03-04T10:00:00+01:00",
        "50.00",
        type="external_revenue",
        source_type="external",
        club=second,
        refunded_amount=Decimal("10.00"),
        payment_status="partially_refunded",
    )
    make_transaction(
        organization,
        "2026-03-05T10:00:00+01:00",
        "10.00",
        type="refund",
        source_type="external",
        club=second,
        refund_of=outside,
        payment_status="refunded",
    )

    Contact.objects.filter(organization=organization).update(created_at=BEFORE)
    Contact.objects.filter(pk__in=[zelda.pk, members[0].pk]).update(created_at=_at("2026-03-02T00:00:00+01:00"))

    # Another organization's activity in the same period.
    rival_club = make_club(other_organization, name="Rival")
    rival_class = make_class(other_organization, rival_club, start=_at("2026-03-03T10:00:00+01:00"), max_capacity=2)
    make_class_booking(rival_class)
    make_checkin(other_organization, club=rival_club, checked_in_at=_at("2026-03-03T10:00:00+01:00"))
    make_transaction(other_organization, "2026-03-03T10:00:00+01:00", "999.00")
    return SimpleNamespace(club=club, second=second, zelda=zelda)


def test_totals_over_the_period(api, activity):
    response = api.get(URL, PERIOD)
    assert response.status_code == 200, response.content
    assert response.json() == {
        "startDate": "2026-03-02",
        "endDate": "2026-03-08",
        "clubId": None,
        "totals": {
            "bookings": 8,
            "classBookings": 7,
            "checkins": 3,
            "newContacts": 2,
            "newMemberships": 1,
            "activeMemberships": 4,
            "cancelledMemberships": 1,
            "revenue": 70.0,
            "refunds": 10.0,
            "classOccupancyRate": 0.25,
        },
    }


def test_club_filter(api, activity):
    body = api.get(URL, {**PERIOD, "clubId": activity.club.id}).json()
    assert body["clubId"] == activity.club.id
    assert body["totals"] == {
        "bookings": 7,
        "classBookings": 6,
        "checkins": 2,
        "newContacts": 2,  # contacts belong to the organization, not to a club
        "newMemberships": 1,
        "activeMemberships": 2,
        "cancelledMemberships": 1,
        "revenue": 20.0,
        "refunds": 0.0,
        "classOccupancyRate": 0.4,
    }


def test_no_person_or_sale_in_the_body(api, activity):
    response = api.get(URL, PERIOD)
    text = response.content.decode()
    for value in ("Zelda", "Quartermain", "zelda@secret.example", "@", "contact", "Yoga"):
        assert value not in text
    body = response.json()
    assert set(body) == {"startDate", "endDate", "clubId", "totals"}
    assert set(body["totals"]) == {
        "bookings",
        "classBookings",
        "checkins",
        "newContacts",
        "newMemberships",
        "activeMemberships",
        "cancelledMemberships",
        "revenue",
        "refunds",
        "classOccupancyRate",
    }
    assert all(isinstance(value, (int, float)) for value in body["totals"].values())


def test_occupancy_is_null_without_classes_with_a_capacity(api, activity):
    body = api.get(URL, {"startDate": "2026-03-06", "endDate": "2026-03-06"}).json()
    assert body["totals"]["classOccupancyRate"] is None
    assert body["totals"]["classBookings"] == 2


def test_another_organization_sees_only_its_own(client_for, other_organization, activity):
    totals = client_for("*", other_organization).get(URL, PERIOD).json()["totals"]
    assert totals["bookings"] == totals["classBookings"] == totals["checkins"] == 1
    assert totals["revenue"] == 999.0
    assert totals["classOccupancyRate"] == 0.5
    assert totals["activeMemberships"] == 0


def test_another_organizations_club_is_a_400(client_for, other_organization, activity):
    response = client_for("*", other_organization).get(URL, {"clubId": activity.club.id})
    assert response.status_code == 400
    assert list(response.json()["details"]["fields"]) == ["clubId"]


def test_366_days_is_the_longest_period(api):
    assert api.get(URL, {"startDate": "2024-01-01", "endDate": "2024-12-31"}).status_code == 200  # leap year: 366
    response = api.get(URL, {"startDate": "2024-01-01", "endDate": "2025-01-01"})
    assert response.status_code == 400
    assert list(response.json()["details"]["fields"]) == ["endDate"]


def test_default_period_is_30_days(api):
    body = api.get(URL).json()
    start, end = dt.date.fromisoformat(body["startDate"]), dt.date.fromisoformat(body["endDate"])
    assert (end - start).days == 29


def test_needs_analytics_read(client_for):
    assert client_for("analytics:read").get(URL).status_code == 200
    response = client_for("transactions:read contacts:read").get(URL)
    assert response.status_code == 403
    assert response.json()["requiredScope"] == "analytics:read"


def _queries(api, params) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = api.get(URL, params)
    assert response.status_code == 200
    return len(queries)


def test_query_count_does_not_grow_with_rows(api, organization, club, area):
    params = {**PERIOD, "clubId": club.id}
    yoga = make_class(organization, club, start=_at("2026-03-03T10:00:00+01:00"), max_capacity=500)
    make_class_booking(yoga)
    api.get(URL, params)  # the key's first use writes last_used_at
    few = _queries(api, params)
    plan = make_plan(organization)
    for n in range(60):
        contact = make_contact(organization)
        make_class_booking(yoga, contact)
        make_checkin(organization, club=club, contact=contact, checked_in_at=_at("2026-03-03T09:00:00+01:00"))
        make_membership(organization, contact, plan, start_date=dt.date(2026, 3, 3), club=club)
        _area_booking(organization, area, _at("2026-03-04T08:00:00+01:00") + dt.timedelta(hours=n))
        make_transaction(organization, "2026-03-04T10:00:00+01:00", "1.00", club=club)
    assert _queries(api, params) == few
    assert few <= 10
    totals = api.get(URL, params).json()["totals"]
    assert totals["classBookings"] == 61 and totals["checkins"] == 60 and totals["revenue"] == 60.0
