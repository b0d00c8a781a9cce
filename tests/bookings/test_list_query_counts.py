"""Every list of the bookings area costs the same number of queries for 1 or 200 rows (and stays lean)."""

import datetime as dt
import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.bookings.models import Booking, CheckIn, Player, WaitlistEntry
from apps.contacts.models import Contact
from tests.bookings.factories import area_for
from tests.factories import make_class

BASE = timezone.now().replace(microsecond=0) + dt.timedelta(days=30)


def _contacts(organization, n, offset=0):
    return Contact.objects.bulk_create(
        Contact(organization=organization, first_name=f"P{offset + i}", last_name="Bench", email=f"p{offset + i}@x.io")
        for i in range(n)
    )


def _seed(organization, n, club):
    """n rows in every list: area bookings (with 2 players each), class bookings, check-ins, waitlist entries."""
    contacts = _contacts(organization, n, offset=n * 1000)
    area = area_for(organization)
    klass = make_class(organization, club, max_capacity=None)
    area_bookings = Booking.objects.bulk_create(
        Booking(
            organization=organization,
            type="area",
            club_id=area.club_id,
            area=area,
            contact=c,
            start_time=BASE + dt.timedelta(hours=i),
            end_time=BASE + dt.timedelta(hours=i, minutes=60),
            price_before_tax="20.00",
            payment_amount="24.20",
        )
        for i, c in enumerate(contacts)
    )
    Player.objects.bulk_create(
        Player(organization=organization, booking=b, contact=b.contact, name="x", email="x@x.io", is_organizer=first)
        for b in area_bookings
        for first in (True, False)
    )
    class_bookings = Booking.objects.bulk_create(
        Booking(
            organization=organization,
            type="class",
            club=club,
            class_occurrence=klass,
            contact=c,
            start_time=klass.start_time,
            end_time=klass.end_time,
        )
        for c in contacts
    )
    CheckIn.objects.bulk_create(
        CheckIn(
            organization=organization,
            method="booking",
            booking=b,
            class_occurrence=klass,
            club=club,
            contact=b.contact,
            checked_in_at=BASE,
        )
        for b in class_bookings
    )
    WaitlistEntry.objects.bulk_create(
        WaitlistEntry(organization=organization, class_occurrence=klass, contact=c, position=i + 1)
        for i, c in enumerate(contacts)
    )
    return klass, area_bookings[0]


def _measure(api, url, rows):
    api.get(url)  # warm up the key lookup
    with CaptureQueriesContext(connection) as queries:
        response = api.get(url)
    assert response.status_code == 200, response.content
    assert len(response.json()["data"]) == rows
    count = len(queries.captured_queries)  # read now: every request resets the connection's query log
    started = time.perf_counter()
    for _ in range(5):
        api.get(url)
    return count, (time.perf_counter() - started) / 5 * 1000


@pytest.mark.parametrize(
    "path",
    [
        "/v1/platform/bookings?limit=200",
        "/v1/platform/bookings?type=area&limit=200",
        "/v1/platform/classes/{klass}/bookings?limit=200",
        "/v1/platform/classes/{klass}/waitlist?limit=200",
        "/v1/platform/checkins?limit=200",
        "/v1/platform/contacts?limit=200",
    ],
)
def test_lists_cost_the_same_queries_for_1_or_200_rows(api, organization, other_organization, club, path):
    small_club = club
    klass, _ = _seed(organization, 1, small_club)
    url = path.format(klass=klass.id)
    is_booking_list = path.startswith("/v1/platform/bookings?") and "type=" not in path
    rows = 2 if is_booking_list else 1  # one area and one class booking
    if path.startswith("/v1/platform/contacts"):
        rows = Contact.objects.filter(organization=organization, status="active").count()
    one, _ = _measure(api, url, rows)

    Booking.objects.filter(organization=organization).delete()
    WaitlistEntry.objects.filter(organization=organization).delete()
    CheckIn.objects.filter(organization=organization).delete()
    klass, _ = _seed(organization, 200, small_club)
    url = path.format(klass=klass.id)
    many, ms = _measure(api, url, 200)
    print(f"\n{path}: {one} queries for 1 row, {many} for 200 rows, {ms:.1f} ms per 200-row page")
    assert many <= one, (one, many)  # a page without area bookings skips the players query


def test_players_list_query_count_is_constant(api, organization, club):
    _, booking = _seed(organization, 1, club)
    url = f"/v1/platform/bookings/{booking.id}/players?limit=200"
    one, _ = _measure(api, url, 2)
    Player.objects.bulk_create(
        Player(organization=organization, booking=booking, name=f"G{i}", email=None) for i in range(198)
    )
    many, ms = _measure(api, url, 200)
    print(f"\nplayers: {one} queries for 2 rows, {many} for 200 rows, {ms:.1f} ms per 200-row page")
    assert many == one
