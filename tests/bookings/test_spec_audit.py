"""Final spec audit (A3): behaviours the contract states that no earlier test pinned down."""

from apps.bookings.models import Booking
from apps.domain_events.models import DomainEvent
from tests.bookings.factories import area_booking, area_for, contact_for
from tests.class_bookings.factories import make_class, make_class_booking

URL = "/v1/platform/bookings"


def test_pending_class_booking_is_confirmed_by_patch(
    api, organization, club, contact, django_capture_on_commit_callbacks
):
    """API.md §7: Booking / Class booking `pending` to `confirmed` by PATCH (or payment)."""
    yoga = make_class(organization, club)
    booking = make_class_booking(yoga, contact, status="pending")
    with django_capture_on_commit_callbacks(execute=True):
        response = api.patch(f"{URL}/{booking.pk}", {"status": "confirmed"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "confirmed" and response.json()["type"] == "class"
    booking.refresh_from_db()
    assert booking.status == "confirmed"
    event = DomainEvent.objects.get(type="booking.updated")
    assert event.changed_fields == ["status"] and event.data["status"] == "confirmed"
    # the roster row shows it too
    (row,) = api.get(f"/v1/platform/classes/{yoga.pk}/bookings").json()["data"]
    assert row["bookingId"] == booking.pk and row["status"] == "confirmed"


def test_class_booking_status_other_moves_are_409(api, organization, club, contact):
    yoga = make_class(organization, club)
    confirmed = make_class_booking(yoga, contact, status="confirmed")
    response = api.patch(f"{URL}/{confirmed.pk}", {"status": "pending"}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "INVALID_STATE_TRANSITION"
    assert response.json()["details"] == {"currentStatus": "confirmed"}
    checked_in = make_class_booking(yoga, status="checked_in")
    response = api.patch(f"{URL}/{checked_in.pk}", {"status": "confirmed"}, format="json")
    assert response.status_code == 409 and response.json()["details"] == {"currentStatus": "checked_in"}
    response = api.patch(f"{URL}/{confirmed.pk}", {"status": "checked_in"}, format="json")
    assert response.status_code == 400 and "status" in response.json()["details"]["fields"]
    assert Booking.objects.get(pk=confirmed.pk).status == "confirmed"


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


def test_archived_contact_is_refused_as_a_player_on_create_as_on_add(api, organization, contact):
    area = area_for(organization)
    gone = contact_for(organization, status="archived")
    body = {
        "areaId": area.pk,
        "contactId": contact.pk,
        "startTime": "2031-01-01T10:00:00Z",
        "endTime": "2031-01-01T11:00:00Z",
        "players": [{"contactId": gone.pk}],
    }
    response = api.post(URL, body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["details"]["fields"] == {"players": ["The contact is archived."]}
    assert not Booking.objects.filter(area=area).exists()
    booking = area_booking(organization, area=area, contact=contact)
    response = api.post(f"{URL}/{booking.pk}/players", {"contactId": gone.pk}, format="json")
    assert response.status_code == 400 and "contactId" in response.json()["details"]["fields"]
