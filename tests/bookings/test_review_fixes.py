"""Round-2 review fixes: edge-of-calendar times, the PostgreSQL overlap constraint, concurrent writers of one court,
and one `booking.created` per channel booking."""

import datetime as dt
import threading

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from apps.bookings import services
from apps.bookings.models import Booking
from apps.clubs.models import AreaBlock
from apps.domain_events.models import DomainEvent
from tests.bookings.factories import area_booking, area_for, contact_for
from tests.class_bookings.factories import make_class

from .conftest import iso

URL = "/v1/platform/bookings"
postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the exclusion constraint exists on PostgreSQL only"
)


@pytest.mark.parametrize(
    ("start", "end"),
    [
        ("0001-01-01T00:00:00Z", "0001-01-01T01:00:00Z"),
        ("9999-12-31T22:00:00Z", "9999-12-31T23:00:00Z"),
        ("1899-12-31T10:00:00Z", "1899-12-31T11:00:00Z"),
    ],
)
def test_times_at_the_edge_of_the_calendar_are_400_not_500(api, area, contact, start, end):
    body = {"areaId": area.id, "contactId": contact.id, "startTime": start, "endTime": end}
    response = api.post(URL, body, format="json")
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "VALIDATION_ERROR"
    assert body["details"]["fields"]["startTime"] == ["Must be between 1900-01-01 and 2199-12-31."]
    assert not Booking.objects.exists()


def test_edge_times_on_patch_checkin_and_payment_report_are_400(api, organization, area):
    booking = area_booking(organization, area=area, external_source="partner", external_id="e-1")
    response = api.patch(f"{URL}/{booking.id}", {"startTime": "9999-12-31T22:00:00Z"}, format="json")
    assert response.status_code == 400
    assert "startTime" in response.json()["details"]["fields"]
    checkin = {"bookingId": booking.id, "checkedInAt": "0001-01-01T00:00:00Z"}
    response = api.post("/v1/platform/checkins", checkin, format="json")
    assert response.status_code == 400
    assert "checkedInAt" in response.json()["details"]["fields"]
    response = api.post(
        "/v1/platform/channel-bookings/partner/e-1/payment",
        {"payment": {"paidAmount": 1, "reference": "r", "paidAt": "9999-12-31T23:59:00Z"}},
        format="json",
    )
    assert response.status_code == 400
    assert "payment.paidAt" in response.json()["details"]["fields"]


@postgres_only
def test_database_refuses_overlapping_active_area_bookings(organization, area, contact):
    start = timezone.now() + dt.timedelta(days=4)
    area_booking(organization, area=area, contact=contact, start=start, hours=2)
    with pytest.raises(IntegrityError), transaction.atomic():
        area_booking(organization, area=area, contact=contact, start=start + dt.timedelta(hours=1))
    # cancelled bookings, touching slots and other areas do not conflict
    area_booking(organization, area=area, contact=contact, start=start, status="cancelled")
    area_booking(organization, area=area, contact=contact, start=start + dt.timedelta(hours=2))
    area_booking(organization, area=area_for(organization), contact=contact, start=start)


@postgres_only
def test_overlap_constraint_answers_409_slot_unavailable_when_the_lock_is_bypassed(api, area, contact, monkeypatch):
    """Defense in depth: even with the application check switched off, the database refuses the second booking and
    the client sees the usual 409, with the conflicting booking named."""
    start = (timezone.now() + dt.timedelta(days=5)).replace(minute=0, second=0, microsecond=0)
    body = {"areaId": area.id, "contactId": contact.id, "startTime": iso(start)}
    first = api.post(URL, {**body, "endTime": iso(start + dt.timedelta(hours=2))}, format="json")
    assert first.status_code == 201
    monkeypatch.setattr(services, "_ensure_slot_free", lambda *args, **kwargs: None)
    second = api.post(
        URL,
        {**body, "startTime": iso(start + dt.timedelta(hours=1)), "endTime": iso(start + dt.timedelta(hours=3))},
        format="json",
    )
    assert second.status_code == 409, second.content
    assert second.json()["code"] == "SLOT_UNAVAILABLE"
    assert second.json()["details"] == {"conflicts": [{"type": "booking", "id": first.json()["id"]}]}
    assert Booking.objects.filter(area=area).count() == 1
    # a reschedule onto the first booking is refused the same way
    other = api.post(
        URL,
        {**body, "startTime": iso(start + dt.timedelta(hours=4)), "endTime": iso(start + dt.timedelta(hours=5))},
        format="json",
    ).json()
    moved = api.patch(f"{URL}/{other['id']}", {"startTime": iso(start + dt.timedelta(hours=1))}, format="json")
    assert moved.status_code == 409 and moved.json()["code"] == "SLOT_UNAVAILABLE"
    assert Booking.objects.get(pk=other["id"]).start_time == start + dt.timedelta(hours=4)


def _race(calls):
    """Run the callables at the same moment, each on its own connection; returns their results in order."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait(timeout=30)
            results[i] = call()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results


@pytest.mark.django_db(transaction=True)
def test_block_and_booking_racing_for_one_slot_never_both_win(organization, area, contact, client_for):
    for round_ in range(3):
        start = (timezone.now() + dt.timedelta(days=6 + round_)).replace(minute=0, second=0, microsecond=0)
        window = {"startTime": iso(start), "endTime": iso(start + dt.timedelta(hours=1))}
        booker, blocker = client_for("*"), client_for("*")
        booking_body = {"areaId": area.id, "contactId": contact.id, **window}
        block_body = {"areaId": area.id, **window}
        results = _race(
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
    results = _race(calls)
    statuses = [r.status_code for r in results]
    assert statuses.count(409) == 7, [(r.status_code, r.content[:200]) for r in results]
    assert sorted(set(statuses)) in ([200, 409], [201, 409])
    assert Booking.objects.filter(area=area, start_time=target, status="confirmed").count() == 1


def test_channel_class_booking_with_payment_emits_one_created_event(
    api, organization, club, contact, django_capture_on_commit_callbacks
):
    occurrence = make_class(organization, club)
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(
            "/v1/platform/channel-bookings",
            {
                "externalSource": "partner",
                "externalId": "c-1",
                "type": "class",
                "classId": occurrence.id,
                "contactId": contact.id,
                "payment": {"paidAmount": 12.10, "reference": "pay_1", "fee": 0.5},
            },
            format="json",
        )
    assert response.status_code == 201, response.content
    assert response.json()["payment"] == {
        "status": "paid",
        "amount": 12.1,
        "paidAmount": 12.1,
        "refundedAmount": 0.0,
        "reference": "pay_1",
        "fee": 0.5,
    }
    events = list(DomainEvent.objects.filter(type__startswith="booking.").values_list("type", "data"))
    assert [t for t, _ in events] == ["booking.created"]
    assert events[0][1]["payment"]["status"] == "paid"  # built after commit: the stored state


def test_a_refused_class_booking_emits_nothing(api, organization, club, contact, django_capture_on_commit_callbacks):
    occurrence = make_class(organization, club, max_capacity=1)
    first = contact_for(organization)
    with django_capture_on_commit_callbacks(execute=True):
        url = f"/v1/platform/classes/{occurrence.id}/bookings"
        assert api.post(url, {"contactId": first.id}, format="json").status_code == 201
        response = api.post(url, {"contactId": contact.id}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "CLASS_FULL"
    assert list(DomainEvent.objects.values_list("type", flat=True)) == ["booking.created"]
