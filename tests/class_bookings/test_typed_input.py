"""Typed input (decisions/foundation-api.md #21): class seats, waitlist and check-ins refuse a value of the wrong
JSON type with a 400 naming the field, and write nothing."""

import pytest

from apps.bookings.models import Booking, CheckIn, WaitlistEntry
from tests.class_bookings.factories import make_class_booking
from tests.factories import make_class
from tests.typed_input import BOOL, INT_ID, STRING, assert_rejected


@pytest.mark.parametrize(
    ("extra", "field", "message"),
    [
        ({"notifyCustomer": "true"}, "notifyCustomer", BOOL),
        ({"notifyCustomer": 0}, "notifyCustomer", BOOL),
        ({"notes": 5}, "notes", STRING),
        ({"notes": {"text": "x"}}, "notes", STRING),
        ({"membershipId": "3"}, "membershipId", INT_ID),
    ],
)
def test_class_booking_refuses_wrong_json_types(api, yoga, contact, extra, field, message):
    response = api.post(f"/v1/platform/classes/{yoga.pk}/bookings", {"contactId": contact.pk, **extra}, format="json")
    assert_rejected(response, field, message)
    assert not Booking.objects.exists()


def test_class_booking_refuses_a_string_contact_id(api, yoga, contact):
    response = api.post(f"/v1/platform/classes/{yoga.pk}/bookings", {"contactId": str(contact.pk)}, format="json")
    assert_rejected(response, "contactId", INT_ID)
    assert not Booking.objects.exists()


def test_waitlist_join_refuses_a_number_for_notes(api, organization, club, contact):
    full = make_class(organization, club, max_capacity=1)
    make_class_booking(full)
    response = api.post(
        f"/v1/platform/classes/{full.pk}/waitlist", {"contactId": contact.pk, "notes": 1}, format="json"
    )
    assert_rejected(response, "notes", STRING)
    assert not WaitlistEntry.objects.exists()


@pytest.mark.parametrize(
    ("payload", "field", "message"),
    [({"notifyCustomer": "yes"}, "notifyCustomer", BOOL), ({"notes": 7}, "notes", STRING)],
)
def test_waitlist_promote_refuses_wrong_json_types(api, organization, club, contact, payload, field, message):
    full = make_class(organization, club, max_capacity=1)
    make_class_booking(full)
    entry = WaitlistEntry.objects.create(
        organization=organization, class_occurrence=full, contact=contact, position=1, status="pending"
    )
    response = api.post(f"/v1/platform/classes/{full.pk}/waitlist/{entry.pk}/promote", payload, format="json")
    assert_rejected(response, field, message)
    entry.refresh_from_db()
    assert entry.status == "pending"
    assert Booking.objects.filter(class_occurrence=full).count() == 1


@pytest.mark.parametrize(
    ("payload", "field"),
    [({"bookingId": "1"}, "bookingId"), ({"bookingId": 2**63}, "bookingId"), ({"bookingId": True}, "bookingId")],
)
def test_check_in_refuses_non_integer_ids(api, yoga, contact, payload, field):
    make_class_booking(yoga, contact)
    response = api.post("/v1/platform/checkins", payload, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()["details"]["fields"]
    assert not CheckIn.objects.exists()
