"""A priced booking's charge: created in the booking's own transaction (area and class bookings, partner channel
bookings), none for a booking that costs nothing, and the partner's payment reports mirrored on it."""

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from apps.billing.models import RevenueAccount
from apps.bookings.models import Booking
from apps.domain_events.models import DomainEvent
from apps.invoices.services import issue_invoice
from apps.transactions.models import Transaction
from tests.bookings.factories import area_for
from tests.factories import make_class, make_membership

BOOKINGS = "/v1/platform/bookings"
CHANNEL = "/v1/platform/channel-bookings"


@pytest.fixture
def slot():
    start = (timezone.now() + dt.timedelta(days=3)).replace(minute=0, second=0, microsecond=0)
    return start, start + dt.timedelta(hours=1)


def _iso(value):
    return value.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


def _area_body(area, slot, **extra):
    return {"areaId": area.id, "startTime": _iso(slot[0]), "endTime": _iso(slot[1]), **extra}


def _channel_body(area, slot, **extra):
    return {
        "externalSource": "playtomic",
        "externalId": "PT-1",
        "contact": {"firstName": "Lia", "lastName": "Sol", "email": "lia@example.com"},
        **_area_body(area, slot),
        **extra,
    }


def test_a_priced_area_booking_creates_its_charge(api, organization, area, contact, slot):
    response = api.post(BOOKINGS, _area_body(area, slot, contactId=contact.id), format="json")
    assert response.status_code == 201, response.content
    booking = Booking.objects.get(pk=response.json()["id"])
    charge = Transaction.objects.get(booking=booking)
    default = RevenueAccount.objects.get(organization=organization, is_default=True)
    # 20.00 an hour before tax, 21 % tax: 24.20 owed, nothing paid.
    assert (charge.type, charge.source_type, charge.payment_status) == ("charge", "booking", "unpaid")
    assert (charge.amount, charge.tax_amount, charge.paid_amount) == (Decimal("24.2"), Decimal("4.2"), 0)
    assert (charge.contact_id, charge.club_id, charge.revenue_account_id) == (contact.id, area.club_id, default.id)
    assert charge.description == "Booking of Court 1"
    listed = api.get("/v1/platform/transactions", {"bookingId": booking.id}).json()["data"]
    assert [(t["id"], t["amount"], t["taxAmount"], t["contactName"]) for t in listed] == [
        (charge.id, 24.2, 4.2, "Ana Lopez")
    ]
    event = DomainEvent.objects.get(type="transaction.created")
    assert event.data["bookingId"] == booking.id and event.data["contactEmail"] == "ana@example.com"


def test_a_free_booking_has_no_charge(api, area, contact, slot):
    response = api.post(BOOKINGS, _area_body(area, slot, contactId=contact.id, priceBeforeTax=0), format="json")
    assert response.status_code == 201, response.content
    assert not Transaction.objects.exists()
    assert not DomainEvent.objects.filter(type__startswith="transaction.").exists()


def test_a_refused_booking_leaves_no_charge(api, area, contact, slot):
    assert api.post(BOOKINGS, _area_body(area, slot, contactId=contact.id), format="json").status_code == 201
    taken = api.post(BOOKINGS, _area_body(area, slot, contactId=contact.id), format="json")
    assert taken.status_code == 409
    assert Transaction.objects.count() == 1


def test_a_priced_class_seat_creates_its_charge_a_membership_seat_none(api, organization, club, contact):
    occurrence = make_class(organization, club, price_before_tax=Decimal("10.00"))
    response = api.post(f"/v1/platform/classes/{occurrence.id}/bookings", {"contactId": contact.id}, format="json")
    assert response.status_code == 201, response.content
    charge = Transaction.objects.get(booking_id=response.json()["bookingId"])
    assert (charge.amount, charge.tax_amount, charge.description) == (
        Decimal("12.1"),
        Decimal("2.1"),
        "Class: Yoga flow",
    )

    other = make_class(organization, club, name="Spin")
    membership = make_membership(organization, contact)
    seat = api.post(
        f"/v1/platform/classes/{other.id}/bookings",
        {"contactId": contact.id, "membershipId": membership.id},
        format="json",
    )
    assert seat.status_code == 201, seat.content
    assert not Transaction.objects.filter(booking_id=seat.json()["bookingId"]).exists()


def test_a_channel_booking_with_payment_creates_a_paid_charge_in_one_event(api, area, slot):
    report = {"paidAmount": 24.2, "reference": "pay_1", "fee": 1, "paidAt": "2026-01-01T10:00:00+01:00"}
    response = api.post(CHANNEL, _channel_body(area, slot, payment=report), format="json")
    assert response.status_code == 201, response.content
    charge = Transaction.objects.get(booking_id=response.json()["id"])
    assert (charge.payment_status, charge.paid_amount, charge.reference) == ("paid", Decimal("24.2"), "pay_1")
    assert charge.paid_at.isoformat() == "2026-01-01T09:00:00+00:00"
    assert list(DomainEvent.objects.filter(type__startswith="transaction.").values_list("type", flat=True)) == [
        "transaction.created"
    ]


def test_payment_reports_are_mirrored_on_the_charge(api, area, slot):
    assert api.post(CHANNEL, _channel_body(area, slot), format="json").status_code == 201
    charge = Transaction.objects.get()
    path = f"{CHANNEL}/playtomic/PT-1/payment"

    def report(**payment):
        response = api.post(path, {"payment": {"reference": "pay_9", **payment}}, format="json")
        assert response.status_code == 200, response.content
        charge.refresh_from_db()
        return (charge.payment_status, charge.paid_amount, charge.refunded_amount)

    assert report(paidAmount=10) == ("partially_paid", Decimal("10"), 0)
    updated = DomainEvent.objects.get(type="transaction.updated")
    assert updated.changed_fields == ["paidAmount", "paymentStatus", "reference"]
    assert (updated.data["paidAmount"], updated.data["paymentStatus"]) == (10.0, "partially_paid")
    assert report(paidAmount=10) == ("partially_paid", Decimal("10"), 0)  # a retry changes nothing
    assert DomainEvent.objects.filter(type="transaction.updated").count() == 1
    assert report(paidAmount=24.2) == ("paid", Decimal("24.2"), 0)
    assert charge.paid_at is not None
    assert report(paidAmount=24.2, refundedAmount=4.2) == ("partially_refunded", Decimal("24.2"), Decimal("4.2"))
    assert report(paidAmount=24.2, refundedAmount=24.2) == ("refunded", Decimal("24.2"), Decimal("24.2"))
    assert DomainEvent.objects.filter(type="transaction.updated").count() == 4


def test_a_charge_is_not_outside_revenue(api, area, contact, slot):
    api.post(BOOKINGS, _area_body(area, slot, contactId=contact.id), format="json")
    charge = Transaction.objects.get()
    response = api.post(f"/v1/platform/transactions/{charge.id}/refund", {"amount": 1}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "NOT_EXTERNAL_REVENUE"


def test_cancelling_voids_an_unpaid_charge_and_keeps_a_paid_one(api, area, contact, slot):
    first = api.post(BOOKINGS, _area_body(area, slot, contactId=contact.id), format="json").json()
    assert api.post(f"{BOOKINGS}/{first['id']}/cancel", {}, format="json").status_code == 200
    charge = Transaction.objects.get(booking_id=first["id"])
    assert charge.payment_status == "void"
    event = DomainEvent.objects.get(type="transaction.updated")
    assert (event.changed_fields, event.data["paymentStatus"]) == (["paymentStatus"], "void")

    paid = {"paidAmount": 24.2, "reference": "pay_1"}
    assert api.post(CHANNEL, _channel_body(area, slot, payment=paid), format="json").status_code == 201
    assert api.post(f"{CHANNEL}/playtomic/PT-1/cancel", {}, format="json").status_code == 200
    charge = Transaction.objects.get(booking__external_id="PT-1")
    assert charge.payment_status == "paid"
    report = {"payment": {**paid, "refundedAmount": 24.2}}
    assert api.post(f"{CHANNEL}/playtomic/PT-1/payment", report, format="json").status_code == 200
    charge.refresh_from_db()
    assert charge.payment_status == "refunded"


def test_a_price_change_is_followed_by_the_charge(api, area, contact, slot):
    free = api.post(BOOKINGS, _area_body(area, slot, contactId=contact.id, priceBeforeTax=0), format="json").json()
    assert not Transaction.objects.exists()
    path = f"{BOOKINGS}/{free['id']}"
    assert api.patch(path, {"priceBeforeTax": 10}, format="json").status_code == 200
    charge = Transaction.objects.get(booking_id=free["id"])
    assert (charge.amount, charge.tax_amount, charge.payment_status) == (Decimal("12.1"), Decimal("2.1"), "unpaid")
    assert DomainEvent.objects.filter(type="transaction.created").count() == 1

    assert api.patch(path, {"priceBeforeTax": 20}, format="json").status_code == 200
    charge.refresh_from_db()
    assert (charge.amount, charge.tax_amount, charge.payment_status) == (Decimal("24.2"), Decimal("4.2"), "unpaid")
    updated = DomainEvent.objects.get(type="transaction.updated")
    assert updated.changed_fields == ["amount", "taxAmount"] and updated.data["amount"] == 24.2

    assert api.patch(path, {"priceBeforeTax": 0}, format="json").status_code == 200
    charge.refresh_from_db()
    assert (charge.amount, charge.payment_status) == (0, "void")
    assert api.patch(path, {"priceBeforeTax": 5}, format="json").status_code == 200
    charge.refresh_from_db()
    assert (charge.amount, charge.payment_status) == (Decimal("6.05"), "unpaid")
    assert Transaction.objects.filter(booking_id=free["id"]).count() == 1
    assert api.patch(path, {"notes": "racket"}, format="json").status_code == 200
    assert DomainEvent.objects.filter(type="transaction.updated").count() == 3


def test_moving_to_another_area_renames_the_charge(api, organization, area, contact, slot):
    other = area_for(organization, name="Court 9")
    booking = api.post(BOOKINGS, _area_body(area, slot, contactId=contact.id), format="json").json()
    assert api.patch(f"{BOOKINGS}/{booking['id']}", {"areaId": other.id}, format="json").status_code == 200
    charge = Transaction.objects.get(booking_id=booking["id"])
    assert (charge.description, charge.club_id, charge.amount) == ("Booking of Court 9", other.club_id, Decimal("24.2"))


def test_a_longer_booking_is_quoted_again_and_its_charge_follows(api, area, contact, slot):
    booking = api.post(BOOKINGS, _area_body(area, slot, contactId=contact.id), format="json").json()
    path = f"{BOOKINGS}/{booking['id']}"
    longer = api.patch(path, {"endTime": _iso(slot[0] + dt.timedelta(minutes=90))}, format="json")
    assert longer.status_code == 200, longer.content
    assert (longer.json()["priceBeforeTax"], longer.json()["price"]) == (30.0, 36.3)
    charge = Transaction.objects.get(booking_id=booking["id"])
    assert (charge.amount, charge.tax_amount) == (Decimal("36.3"), Decimal("6.3"))
    # an explicit price in the same PATCH wins over the quote
    kept = api.patch(path, {"endTime": _iso(slot[1]), "priceBeforeTax": 25}, format="json")
    assert (kept.json()["durationMinutes"], kept.json()["priceBeforeTax"]) == (60, 25.0)
    charge.refresh_from_db()
    assert charge.amount == Decimal("30.25")


def test_a_moved_class_seat_keeps_its_price_and_its_charge_names_the_new_class(api, organization, club, contact):
    yoga = make_class(organization, club, price_before_tax=Decimal("10.00"))
    seat = api.post(f"/v1/platform/classes/{yoga.id}/bookings", {"contactId": contact.id}, format="json").json()
    spin = make_class(organization, club, name="Spin", start=yoga.start_time + dt.timedelta(days=1))
    moved = api.patch(f"{BOOKINGS}/{seat['bookingId']}", {"classId": spin.id}, format="json")
    assert moved.status_code == 200, moved.content
    charge = Transaction.objects.get(booking_id=seat["bookingId"])
    assert (charge.description, charge.amount) == ("Class: Spin", Decimal("12.1"))
    updated = DomainEvent.objects.get(type="transaction.updated")
    assert updated.changed_fields == ["description"]


def test_payment_reports_on_an_invoiced_booking_charge_refresh_its_invoice(api, organization, area, slot):
    """Booking charges are not invoiced by the API today; when one is (as an event ticket's is), the partner's
    payment reports move the invoice along with the charge."""
    assert api.post(CHANNEL, _channel_body(area, slot), format="json").status_code == 201
    charge = Transaction.objects.get()
    invoice_id = issue_invoice(organization, [charge]).pk
    path = f"{CHANNEL}/playtomic/PT-1/payment"

    def report(**payment):
        response = api.post(path, {"payment": {"reference": "pay_9", **payment}}, format="json")
        assert response.status_code == 200, response.content
        body = api.get(f"/v1/platform/invoices/{invoice_id}").json()
        return body["status"], body["amountPaid"], body["amountDue"]

    assert report(paidAmount=10) == ("open", 10.0, 14.2)
    assert report(paidAmount=24.2) == ("paid", 24.2, 0.0)
    updated = DomainEvent.objects.filter(type="invoice.updated").order_by("created_at", "id")
    assert [e.changed_fields for e in updated] == [["amountPaid", "amountDue"], ["amountPaid", "amountDue", "status"]]
    assert report(paidAmount=24.2) == ("paid", 24.2, 0.0)  # a retry changes nothing
    assert DomainEvent.objects.filter(type="invoice.updated").count() == 2
    assert report(paidAmount=24.2, refundedAmount=24.2) == ("open", 0.0, 24.2)
