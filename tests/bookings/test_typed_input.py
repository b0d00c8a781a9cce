"""Typed input (decisions/foundation-api.md #21): a body value of the wrong JSON type is a 400 naming the field and
nothing is written. Area bookings, players and channel bookings."""

import pytest

from apps.bookings.models import Booking, Player
from apps.contacts.models import Contact
from tests.typed_input import BOOL, INT_ID, NUMBER, STRING, assert_rejected

from .conftest import iso
from .factories import area_booking


def create_body(area, contact, slot, **extra):
    return {"areaId": area.id, "contactId": contact.id, "startTime": iso(slot[0]), "endTime": iso(slot[1]), **extra}


@pytest.mark.parametrize(
    ("extra", "field", "message"),
    [
        ({"priceBeforeTax": "20.00"}, "priceBeforeTax", NUMBER),
        ({"priceBeforeTax": True}, "priceBeforeTax", NUMBER),
        ({"notifyCustomer": "true"}, "notifyCustomer", BOOL),
        ({"notifyCustomer": 1}, "notifyCustomer", BOOL),
        ({"sport": 5}, "sport", STRING),
        ({"notes": 12}, "notes", STRING),
        ({"notes": ["a"]}, "notes", STRING),
        ({"players": [{"name": 5}]}, "players.0.name", STRING),
        ({"players": [{"name": "Guest", "email": 5}]}, "players.0.email", STRING),
        ({"contactId": "1"}, "contactId", INT_ID),
        ({"priceBeforeTax": 10**40}, "priceBeforeTax", "Ensure that there are no more than 10 digits in total."),
    ],
)
def test_area_booking_create_refuses_wrong_json_types(api, area, contact, slot, extra, field, message):
    response = api.post("/v1/platform/bookings", create_body(area, contact, slot, **extra), format="json")
    assert_rejected(response, field, message)
    assert not Booking.objects.exists()


def test_area_booking_create_refuses_a_huge_id(api, area, contact, slot):
    response = api.post("/v1/platform/bookings", create_body(area, contact, slot, areaId=2**63), format="json")
    assert response.status_code == 400, response.content
    assert "areaId" in response.json()["details"]["fields"]
    assert not Booking.objects.exists()


def test_area_booking_create_still_takes_json_numbers(api, area, contact, slot):
    response = api.post(
        "/v1/platform/bookings",
        create_body(area, contact, slot, priceBeforeTax=18.5, notifyCustomer=False, sport="padel"),
        format="json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["priceBeforeTax"] == 18.5


@pytest.mark.parametrize(
    ("patch", "field", "message"),
    [
        ({"priceBeforeTax": "30"}, "priceBeforeTax", NUMBER),
        ({"notifyCustomer": "yes"}, "notifyCustomer", BOOL),
        ({"notes": 5}, "notes", STRING),
        ({"sport": False}, "sport", STRING),
    ],
)
def test_booking_update_refuses_wrong_json_types(api, organization, patch, field, message):
    booking = area_booking(organization, notes="keep")
    before = Booking.objects.values().get(pk=booking.pk)
    response = api.patch(f"/v1/platform/bookings/{booking.pk}", patch, format="json")
    assert_rejected(response, field, message)
    assert Booking.objects.values().get(pk=booking.pk) == before


@pytest.mark.parametrize(
    ("payload", "field", "message"),
    [({"reason": 5}, "reason", STRING), ({"notifyCustomer": "false"}, "notifyCustomer", BOOL)],
)
def test_booking_cancel_refuses_wrong_json_types(api, organization, payload, field, message):
    booking = area_booking(organization)
    response = api.post(f"/v1/platform/bookings/{booking.pk}/cancel", payload, format="json")
    assert_rejected(response, field, message)
    booking.refresh_from_db()
    assert booking.status == "confirmed"
    assert booking.cancelled_at is None


def test_player_add_refuses_a_number_for_a_name(api, organization):
    booking = area_booking(organization)
    response = api.post(f"/v1/platform/bookings/{booking.pk}/players", {"name": 42}, format="json")
    assert_rejected(response, "name", STRING)
    assert Player.objects.filter(booking=booking).count() == 1


def channel_body(area, slot, **extra):
    return {
        "externalSource": "partner",
        "externalId": "ext-1",
        "areaId": area.id,
        "startTime": iso(slot[0]),
        "endTime": iso(slot[1]),
        "contact": {"firstName": "Eva"},
        **extra,
    }


@pytest.mark.parametrize(
    ("extra", "field", "message"),
    [
        ({"externalId": 123}, "externalId", STRING),
        ({"externalSource": 7}, "externalSource", STRING),
        ({"contact": {"firstName": 5}}, "contact.firstName", STRING),
        ({"contact": {"firstName": "Eva", "phone": 600100200}}, "contact.phone", STRING),
        ({"priceBeforeTax": "12"}, "priceBeforeTax", NUMBER),
        ({"payment": {"paidAmount": "12.10", "reference": "p-1"}}, "payment.paidAmount", NUMBER),
        ({"payment": {"paidAmount": 12.1, "reference": 991}}, "payment.reference", STRING),
        ({"payment": {"paidAmount": 12.1, "reference": "p-1", "fee": "1"}}, "payment.fee", NUMBER),
    ],
)
def test_channel_booking_create_refuses_wrong_json_types(api, organization, area, slot, extra, field, message):
    contacts = Contact.objects.count()
    response = api.post("/v1/platform/channel-bookings", channel_body(area, slot, **extra), format="json")
    assert_rejected(response, field, message)
    assert not Booking.objects.exists()
    assert Contact.objects.count() == contacts


def test_channel_payment_refuses_a_string_amount(api, organization):
    booking = area_booking(organization, external_source="partner", external_id="ext-9")
    before = Booking.objects.values().get(pk=booking.pk)
    response = api.post(
        "/v1/platform/channel-bookings/partner/ext-9/payment",
        {"payment": {"paidAmount": "24.20", "reference": "p-9"}},
        format="json",
    )
    assert_rejected(response, "payment.paidAmount", NUMBER)
    assert Booking.objects.values().get(pk=booking.pk) == before
