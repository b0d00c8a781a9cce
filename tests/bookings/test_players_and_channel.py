import datetime as dt

import pytest

from apps.bookings.models import Booking, Player
from apps.classes.models import ClassOccurrence
from apps.contacts.models import Contact
from apps.domain_events.models import DomainEvent
from tests.factories import make_class

from .conftest import iso
from .factories import area_booking, area_for, contact_for

URL = "/v1/platform/bookings"
CHANNEL = "/v1/platform/channel-bookings"


# --- players --------------------------------------------------------------------------------------------------


def test_players_list_add_remove(api, organization, area, contact, django_capture_on_commit_callbacks):
    booking = area_booking(organization, area=area, contact=contact)
    organizer = booking.players.get()
    bo = contact_for(organization, first_name="Bo", last_name=None, email="bo@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"{URL}/{booking.id}/players", {"contactId": bo.id}, format="json")
    assert response.status_code == 201, response.content
    player = Player.objects.get(pk=response.json()["id"])
    assert response["Location"] == f"{URL}/{booking.id}/players/{player.id}"
    assert response.json() == {
        "id": player.id,
        "contactId": bo.id,
        "name": "Bo",
        "email": "bo@example.com",
        "isOrganizer": False,
        "createdAt": response.json()["createdAt"],
    }
    assert DomainEvent.objects.get(type="booking.updated").changed_fields == ["players", "playerCount"]
    guest = api.post(f"{URL}/{booking.id}/players", {"name": "Guest"}, format="json").json()
    body = api.get(f"{URL}/{booking.id}/players").json()
    assert [p["id"] for p in body["data"]] == [organizer.id, player.id, guest["id"]]
    assert body["total"] == 3
    assert api.get(f"{URL}/{booking.id}").json()["playerCount"] == 3
    assert api.delete(f"{URL}/{booking.id}/players/{player.id}").status_code == 204
    assert not Player.objects.filter(pk=player.id).exists()
    response = api.delete(f"{URL}/{booking.id}/players/{organizer.id}")
    assert response.status_code == 409 and response.json()["code"] == "CONFLICT"


def test_player_duplicates_and_limit(api, organization, area, contact):
    booking = area_booking(organization, area=area, contact=contact)
    organizer = booking.players.get()
    response = api.post(f"{URL}/{booking.id}/players", {"contactId": contact.id}, format="json")
    assert response.status_code == 409
    assert response.json()["details"] == {"field": "contactId", "existingId": organizer.id}
    response = api.post(f"{URL}/{booking.id}/players", {"name": "Ana again", "email": "ANA@example.com"}, format="json")
    assert response.status_code == 409 and response.json()["details"]["field"] == "email"
    for i in range(3):
        assert api.post(f"{URL}/{booking.id}/players", {"name": f"P{i}"}, format="json").status_code == 201
    response = api.post(f"{URL}/{booking.id}/players", {"name": "Fifth"}, format="json")
    assert response.status_code == 409
    assert response.json() == {
        "error": "Conflict",
        "message": response.json()["message"],
        "code": "PLAYER_LIMIT_REACHED",
        "details": {"maxPlayers": 4},
    }


def test_player_body_validation_and_class_booking(api, organization, club, area, contact, other_organization):
    booking = area_booking(organization, area=area, contact=contact)
    assert api.post(f"{URL}/{booking.id}/players", {}, format="json").status_code == 400
    foreign = contact_for(other_organization)
    response = api.post(f"{URL}/{booking.id}/players", {"contactId": foreign.id}, format="json")
    assert response.status_code == 400 and "contactId" in response.json()["details"]["fields"]
    start = booking.start_time
    klass = ClassOccurrence.objects.create(
        organization=organization, club=club, name="Yoga", start_time=start, end_time=start + dt.timedelta(hours=1)
    )
    class_booking = Booking.objects.create(
        organization=organization,
        type="class",
        club=club,
        class_occurrence=klass,
        contact=contact,
        start_time=klass.start_time,
        end_time=klass.end_time,
    )
    response = api.post(f"{URL}/{class_booking.id}/players", {"name": "X"}, format="json")
    assert response.status_code == 400


def test_player_of_another_booking_is_404(api, organization, area, contact):
    b1 = area_booking(organization, area=area, contact=contact)
    b2 = area_booking(organization, area=area)
    other_player = b2.players.get()
    assert api.delete(f"{URL}/{b1.id}/players/{other_player.id}").status_code == 404


def test_player_email_hidden_without_contacts_read(client_for, organization, area, contact):
    booking = area_booking(organization, area=area, contact=contact)
    body = client_for("bookings:read").get(f"{URL}/{booking.id}/players").json()
    assert body["data"][0]["email"] is None


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


# --- channel integration ----------------------------------------------------------------------------------------


def channel_body(area, slot, **extra):
    return {
        "externalSource": "playtomic",
        "externalId": "PT-123",
        "areaId": area.id,
        "startTime": iso(slot[0]),
        "endTime": iso(slot[1]),
        "contact": {"firstName": "Lia", "lastName": "Sol", "email": "lia@example.com"},
        **extra,
    }


def test_channel_area_booking_creates_contact_and_reads_back(api, organization, area, slot):
    response = api.post(CHANNEL, channel_body(area, slot, priceBeforeTax=30, notes="via partner"), format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["source"], body["externalSource"], body["externalId"]) == ("channel", "playtomic", "PT-123")
    assert body["contactName"] == "Lia Sol" and body["priceBeforeTax"] == 30.0 and body["price"] == 36.3
    assert response["Location"] == f"{URL}/{body['id']}"
    contact = Contact.objects.get(email="lia@example.com")
    assert body["contactId"] == contact.id
    again = api.get(f"{CHANNEL}/playtomic/PT-123")
    assert again.status_code == 200 and again.json() == body
    assert api.get(f"{CHANNEL}/playtomic/nope").status_code == 404
    assert api.get(f"{CHANNEL}/other/PT-123").status_code == 404


def test_channel_matches_existing_active_contact_by_email(api, organization, area, contact, slot):
    body = channel_body(area, slot, contact={"firstName": "Whoever", "email": "ANA@example.com"})
    response = api.post(CHANNEL, body, format="json")
    assert response.status_code == 201
    assert response.json()["contactId"] == contact.id
    assert Contact.objects.count() == 1


def test_channel_duplicate_external_id_is_409(api, area, slot):
    first = api.post(CHANNEL, channel_body(area, slot), format="json").json()
    later = (slot[0] + dt.timedelta(hours=3), slot[1] + dt.timedelta(hours=3))
    response = api.post(CHANNEL, channel_body(area, later), format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "DUPLICATE_VALUE"
    assert response.json()["details"] == {"field": "externalId", "existingId": first["id"]}


@pytest.mark.parametrize(
    "change, field",
    [
        ({"externalSource": "Bad Source"}, "externalSource"),
        ({"externalId": "x" * 101}, "externalId"),
        ({"areaId": None}, "areaId"),
        ({"type": "class"}, "classId"),
        ({"contactId": 1}, "contactId"),
        ({"type": "event"}, "type"),
        ({"payment": {"paidAmount": -1, "reference": "r"}}, "payment.paidAmount"),
    ],
)
def test_channel_validation(api, area, slot, change, field):
    body = {k: v for k, v in {**channel_body(area, slot), **change}.items() if v is not None}
    response = api.post(CHANNEL, body, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()["details"]["fields"]


def test_channel_slot_conflict_is_409(api, organization, area, contact, slot):
    area_booking(organization, area=area, contact=contact, start=slot[0])
    response = api.post(CHANNEL, channel_body(area, slot), format="json")
    assert response.status_code == 409 and response.json()["code"] == "SLOT_UNAVAILABLE"
    assert not Booking.objects.filter(external_id="PT-123").exists()


def test_channel_class_booking(api, organization, club, slot):
    klass = ClassOccurrence.objects.create(
        organization=organization,
        club=club,
        name="Spin",
        start_time=slot[0],
        end_time=slot[1],
        price_before_tax="8.00",
    )
    response = api.post(
        CHANNEL,
        {
            "externalSource": "classpass",
            "externalId": "CP-1",
            "type": "class",
            "classId": klass.id,
            "contact": {"firstName": "Kim"},
            "payment": {"paidAmount": 9.68, "reference": "pay_1", "fee": 1.5},
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["type"], body["classId"], body["source"]) == ("class", klass.id, "channel")
    assert body["payment"] == {
        "status": "paid",
        "amount": 9.68,
        "paidAmount": 9.68,
        "refundedAmount": 0.0,
        "reference": "pay_1",
        "fee": 1.5,
    }
    # one event, showing the booking with its payment as GET returns it
    (created,) = DomainEvent.objects.filter(type__startswith="booking.")
    assert created.type == "booking.created"
    assert created.data == api.get(f"{URL}/{body['id']}").json()


def test_channel_cancel_and_payment(api, organization, area, slot, django_capture_on_commit_callbacks):
    api.post(CHANNEL, channel_body(area, slot, status="pending"), format="json")
    path = f"{CHANNEL}/playtomic/PT-123"
    report = {"payment": {"paidAmount": 10, "reference": "pt_pay_9"}}
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"{path}/payment", report, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["payment"] == {
        "status": "unpaid",
        "amount": 24.2,
        "paidAmount": 10.0,
        "refundedAmount": 0.0,
        "reference": "pt_pay_9",
        "fee": None,
    }
    assert DomainEvent.objects.get(type="booking.updated").changed_fields == ["payment"]
    # retrying the same totals changes nothing and emits nothing
    with django_capture_on_commit_callbacks(execute=True):
        assert api.post(f"{path}/payment", report, format="json").status_code == 200
    assert DomainEvent.objects.filter(type="booking.updated").count() == 1
    full = {
        "payment": {
            "paidAmount": 24.2,
            "refundedAmount": 2,
            "reference": "pt_pay_9",
            "fee": 0.5,
            "paidAt": "2026-01-01T10:00:00+01:00",
        }
    }
    body = api.post(f"{path}/payment", full, format="json").json()
    assert body["payment"]["status"] == "paid" and body["payment"]["refundedAmount"] == 2.0
    booking = Booking.objects.get(external_id="PT-123")
    assert booking.paid_at.isoformat() == "2026-01-01T09:00:00+00:00"
    assert api.post(f"{path}/payment", {"payment": {"paidAmount": 1}}, format="json").status_code == 400
    response = api.post(f"{path}/cancel", {"reason": "partner cancelled"}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "cancelled"
    assert api.post(f"{path}/cancel").status_code == 409


def test_channel_payment_keeps_no_charge(api, organization, area, slot):
    api.post(CHANNEL, channel_body(area, slot, priceBeforeTax=0), format="json")
    body = api.post(
        f"{CHANNEL}/playtomic/PT-123/payment", {"payment": {"paidAmount": 5, "reference": "r"}}, format="json"
    ).json()
    assert body["payment"]["status"] == "no_charge" and body["payment"]["paidAmount"] == 5.0


def test_pending_booking_confirmed_by_full_payment(api, organization, area, contact):
    booking = area_booking(
        organization, area=area, contact=contact, status="pending", external_source="p", external_id="1"
    )
    body = api.post(f"{CHANNEL}/p/1/payment", {"payment": {"paidAmount": 24.2, "reference": "r"}}, format="json").json()
    assert body["status"] == "confirmed" and body["payment"]["status"] == "paid"
    assert booking.pk == body["id"]


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
    assert events[0][1]["payment"]["status"] == "paid"  # the payment is applied before the event is built
