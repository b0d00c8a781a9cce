"""GET /v1/platform/classes/{id}/bookings: the roster, one Class booking row per person."""

import datetime as dt
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.bookings.models import Booking
from tests.class_bookings.factories import make_class_booking
from tests.factories import make_class, make_membership


def url(occurrence):
    return f"/v1/platform/classes/{occurrence.pk}/bookings"


def test_roster_row_has_the_spec_shape(api, organization, yoga, contact):
    booking = make_class_booking(yoga, contact, notes="front row", paid_amount=Decimal("12.10"), payment_status="paid")
    body = api.get(url(yoga)).json()
    assert body["total"] == 1 and body["limit"] == 50 and body["offset"] == 0
    assert body["data"] == [
        {
            "bookingId": booking.pk,
            "classId": yoga.pk,
            "contactId": contact.pk,
            "contactName": "Ana Lopez",
            "bookerName": None,
            "contactEmail": "ana@example.com",
            "status": "confirmed",
            "source": "api",
            "startTime": yoga.start_time.astimezone(dt.UTC).isoformat().replace("+00:00", "Z"),
            "endTime": yoga.end_time.astimezone(dt.UTC).isoformat().replace("+00:00", "Z"),
            "checkedIn": False,
            "checkedInAt": None,
            "membershipId": None,
            "entranceMethod": "direct_payment",
            "payment": {
                "status": "paid",
                "amount": 12.1,
                "paidAmount": 12.1,
                "refundedAmount": 0.0,
                "reference": None,
                "fee": None,
            },
            "notes": "front row",
            "createdAt": body["data"][0]["createdAt"],
        }
    ]
    assert body["data"][0]["createdAt"].endswith("Z")


def test_contact_email_needs_contacts_read(client_for, yoga, contact):
    make_class_booking(yoga, contact)
    only_bookings = client_for("bookings:read").get(url(yoga)).json()
    assert only_bookings["data"][0]["contactEmail"] is None
    assert only_bookings["data"][0]["contactName"] == "Ana Lopez"
    with_contacts = client_for("bookings:read contacts:read").get(url(yoga)).json()
    assert with_contacts["data"][0]["contactEmail"] == "ana@example.com"


def test_anonymous_seat_and_membership_seat(api, organization, yoga, contact):
    anonymous = make_class_booking(yoga, None, booker_name="Paid by Bob")
    Booking.objects.filter(pk=anonymous.pk).update(contact=None)
    membership = make_membership(organization, contact)
    make_class_booking(
        yoga, contact, membership=membership, entrance_method="membership", payment_status="no_charge", payment_amount=0
    )
    rows = api.get(url(yoga)).json()["data"]
    assert rows[0]["contactId"] is None and rows[0]["contactName"] is None and rows[0]["contactEmail"] is None
    assert rows[0]["bookerName"] == "Paid by Bob"
    assert rows[1]["membershipId"] == membership.pk
    assert rows[1]["entranceMethod"] == "membership"
    assert rows[1]["payment"]["status"] == "no_charge"
    assert rows[1]["payment"]["paidAmount"] == 0


def test_every_status_ordered_by_creation_and_filters(api, organization, yoga):
    confirmed = make_class_booking(yoga, status="confirmed")
    cancelled = make_class_booking(yoga, status="cancelled")
    checked = make_class_booking(yoga, status="checked_in", checked_in_at=yoga.start_time)
    pending = make_class_booking(yoga, status="pending")
    other_class = make_class(organization)
    make_class_booking(other_class)

    ids = [r["bookingId"] for r in api.get(url(yoga)).json()["data"]]
    assert ids == [confirmed.pk, cancelled.pk, checked.pk, pending.pk]

    body = api.get(url(yoga) + "?status=pending,cancelled").json()
    assert [r["bookingId"] for r in body["data"]] == [cancelled.pk, pending.pk] and body["total"] == 2

    rows = api.get(url(yoga) + "?checkedIn=true").json()["data"]
    assert [(r["bookingId"], r["checkedIn"]) for r in rows] == [(checked.pk, True)]
    assert rows[0]["checkedInAt"] is not None
    assert len(api.get(url(yoga) + "?checkedIn=false").json()["data"]) == 3


@pytest.mark.parametrize("query", ["status=gone", "checkedIn=yes", "limit=0", "offset=-1"])
def test_bad_filter_values_are_400(api, yoga, query):
    response = api.get(url(yoga) + "?" + query)
    assert response.status_code == 400
    assert response.json()["code"] == "VALIDATION_ERROR"


def test_cancelled_class_keeps_its_roster(api, yoga):
    booking = make_class_booking(yoga)
    yoga.status = "cancelled"
    yoga.save()
    assert [r["bookingId"] for r in api.get(url(yoga)).json()["data"]] == [booking.pk]


def test_other_organization_class_is_404(api, other_organization):
    foreign = make_class(other_organization)
    response = api.get(url(foreign))
    assert response.status_code == 404
    assert response.json()["code"] == "NOT_FOUND"
    assert api.get("/v1/platform/classes/99999999999999999999/bookings").status_code == 404


def test_query_count_is_constant(api, organization, yoga):
    yoga.max_capacity = None
    yoga.save()
    make_class_booking(yoga)
    api.get(url(yoga))  # warm-up: the credential's first use is recorded once
    with CaptureQueriesContext(connection) as one:
        assert api.get(url(yoga) + "?limit=200").status_code == 200
    for _ in range(199):
        make_class_booking(yoga)
    with CaptureQueriesContext(connection) as many:
        body = api.get(url(yoga) + "?limit=200").json()
    assert len(body["data"]) == 200
    assert len(many) == len(one)
