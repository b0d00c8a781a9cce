import datetime as dt
import threading

import pytest
from django.db import connection
from django.utils import timezone

from apps.api import ratelimit
from apps.bookings.models import Booking
from apps.occupancy.models import AreaBlock
from apps.organizations.models import ApiKey
from tests.concurrency import race

from .conftest import iso
from .factories import area_booking, contact_for

URL = "/v1/platform/bookings"


@pytest.mark.django_db(transaction=True)
def test_twenty_parallel_requests_for_one_slot_make_exactly_one_booking(organization, area, contact, client_for):
    start = (timezone.now() + dt.timedelta(days=5)).replace(minute=0, second=0, microsecond=0)
    body = {
        "areaId": area.id,
        "contactId": contact.id,
        "startTime": iso(start),
        "endTime": iso(start + dt.timedelta(hours=1)),
    }
    n = 20
    clients = [client_for("*") for _ in range(n)]  # one key each: the rate limits stay out of the way
    barrier = threading.Barrier(n)
    results = []
    lock = threading.Lock()

    def worker(client):
        try:
            barrier.wait(timeout=30)
            response = client.post(URL, body, format="json")
            with lock:
                results.append((response.status_code, response.json()))
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    statuses = sorted(status for status, _ in results)
    assert statuses == [201] + [409] * (n - 1), results
    assert {b["code"] for s, b in results if s == 409} == {"SLOT_UNAVAILABLE"}
    assert Booking.objects.filter(area=area, status="confirmed").count() == 1


@pytest.mark.django_db(transaction=True)
def test_block_and_booking_racing_for_one_slot_never_both_win(organization, area, contact, client_for):
    for round_ in range(3):
        start = (timezone.now() + dt.timedelta(days=6 + round_)).replace(minute=0, second=0, microsecond=0)
        window = {"startTime": iso(start), "endTime": iso(start + dt.timedelta(hours=1))}
        booker, blocker = client_for("*"), client_for("*")
        booking_body = {"areaId": area.id, "contactId": contact.id, **window}
        block_body = {"areaId": area.id, **window}
        results = race(
            [
                lambda c=booker, b=booking_body: c.post(URL, b, format="json"),
                lambda c=blocker, b=block_body: c.post("/v1/platform/area-blocks", b, format="json"),
            ]
        )
        statuses = sorted(r.status_code for r in results)
        assert statuses == [201, 409], [(r.status_code, r.content) for r in results]
        assert {r.json()["code"] for r in results if r.status_code == 409} == {"SLOT_UNAVAILABLE"}
        taken = Booking.objects.filter(area=area, start_time=start, status="confirmed").count()
        taken += AreaBlock.objects.filter(area=area, start_time=start).count()
        assert taken == 1


@pytest.mark.django_db(transaction=True)
def test_reschedule_and_create_racing_for_one_slot_never_double_book(organization, area, contact, client_for):
    target = (timezone.now() + dt.timedelta(days=9)).replace(minute=0, second=0, microsecond=0)
    window = {"startTime": iso(target), "endTime": iso(target + dt.timedelta(hours=1))}
    movers = [area_booking(organization, area=area, start=target + dt.timedelta(hours=2 + 2 * i)) for i in range(4)]
    clients = [client_for("*") for _ in range(8)]
    calls = [lambda c=clients[i], b=movers[i]: c.patch(f"{URL}/{b.id}", window, format="json") for i in range(4)]
    calls += [
        lambda c=clients[4 + i]: c.post(
            URL, {"areaId": area.id, "contactId": contact_for(organization).id, **window}, format="json"
        )
        for i in range(4)
    ]
    results = race(calls)
    statuses = [r.status_code for r in results]
    assert statuses.count(409) == 7, [(r.status_code, r.content[:200]) for r in results]
    assert sorted(set(statuses)) in ([200, 409], [201, 409])
    assert Booking.objects.filter(area=area, start_time=target, status="confirmed").count() == 1


def _bic_remaining(key):
    (state,) = ratelimit._states([ratelimit.BOOK_INTO_CLASS], f"api_key:{key.pk}", increment=False)
    return state.remaining


def test_booking_writes_bucket_60_per_minute(api, organization):
    for i in range(60):
        response = api.post(URL, {}, format="json")
        assert response.status_code == 400, (i, response.content)
    assert response["X-RateLimit-Limit"] == "60" and response["X-RateLimit-Remaining"] == "0"
    response = api.post(URL, {}, format="json")
    assert response.status_code == 429
    assert response.json()["code"] == "RATE_LIMITED"
    assert response.json()["details"]["bucket"] == "booking-writes"
    assert int(response["Retry-After"]) > 0
    # cancels and player writes share the bucket
    assert api.post(f"{URL}/1/cancel").status_code == 429
    # the writes also counted in the general bucket: 61 + 1 so far, this GET is the 63rd
    response = api.get(URL)
    assert response.status_code == 200
    assert (response["X-RateLimit-Limit"], response["X-RateLimit-Remaining"]) == ("100", str(100 - 63))
    # ... and not in the book-into-class bucket: a class channel booking still goes through
    key = ApiKey.objects.get(organization=organization)
    assert _bic_remaining(key) == 60
    response = api.post("/v1/platform/channel-bookings", {"type": "class"}, format="json")
    assert response.status_code == 400
    assert _bic_remaining(key) == 59
    # an area channel booking is a booking write
    assert api.post("/v1/platform/channel-bookings", {"type": "area"}, format="json").status_code == 429


def test_every_booking_write_shares_the_booking_writes_bucket(api, organization):
    """Limits: booking writes (create, update, cancel, add or remove players; channel area create, cancel, payment)
    share one 60/min bucket."""
    booking = area_booking(organization, external_source="p", external_id="x1")
    for _ in range(60):
        assert api.post(URL, {}, format="json").status_code == 400
    writes = [
        ("patch", f"{URL}/{booking.pk}"),
        ("post", f"{URL}/{booking.pk}/cancel"),
        ("post", f"{URL}/{booking.pk}/players"),
        ("delete", f"{URL}/{booking.pk}/players/1"),
        ("post", "/v1/platform/channel-bookings"),
        ("post", "/v1/platform/channel-bookings/p/x1/cancel"),
        ("post", "/v1/platform/channel-bookings/p/x1/payment"),
    ]
    for method, path in writes:
        response = getattr(api, method)(path, {}, format="json")
        assert response.status_code == 429, (method, path, response.content)
        assert response.json()["details"]["bucket"] == "booking-writes"
    # reads are in the general bucket only
    assert api.get(f"{URL}/{booking.pk}").status_code == 200
    assert Booking.objects.get(pk=booking.pk).status == "confirmed"
