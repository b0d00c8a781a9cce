import datetime as dt
import threading

import pytest
from django.db import connection
from django.utils import timezone

from apps.api import ratelimit
from apps.bookings.models import Booking
from apps.organizations.models import ApiKey

from .conftest import iso

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
