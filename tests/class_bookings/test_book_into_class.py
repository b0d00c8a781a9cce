"""POST /v1/platform/classes/{id}/bookings: book a customer into a class."""

import datetime as dt
import threading

import pytest
from django.core import mail
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from apps.api import ratelimit
from apps.bookings.models import Booking
from apps.domain_events.models import DomainEvent
from apps.notifications.models import Notification
from apps.organizations.models import ApiKey
from tests.class_bookings.factories import make_checkin, make_class_booking
from tests.factories import make_class, make_class_type, make_contact, make_membership, make_plan


def url(occurrence):
    return f"/v1/platform/classes/{occurrence.pk}/bookings"


def book(api, occurrence, **body):
    return api.post(url(occurrence), body, format="json")


def test_books_a_contact_with_direct_payment(api, organization, yoga, contact, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = book(api, yoga, contactId=contact.pk, notes="first time")
    assert response.status_code == 201, response.content
    body = response.json()
    booking = Booking.objects.get(pk=body["bookingId"])
    assert response["Location"] == f"/v1/platform/bookings/{booking.pk}"
    assert body["classId"] == yoga.pk
    assert body["contactId"] == contact.pk and body["contactName"] == "Ana Lopez"
    assert body["contactEmail"] == "ana@example.com"
    assert body["status"] == "confirmed" and body["source"] == "api"
    assert body["entranceMethod"] == "direct_payment" and body["membershipId"] is None
    assert body["payment"] == {
        "status": "unpaid",
        "amount": 12.1,
        "paidAmount": 0.0,
        "refundedAmount": 0.0,
        "reference": None,
        "fee": None,
    }
    assert body["notes"] == "first time" and body["checkedIn"] is False
    assert (booking.type, booking.club_id, booking.start_time, booking.end_time) == (
        "class",
        yoga.club_id,
        yoga.start_time,
        yoga.end_time,
    )
    event = DomainEvent.objects.get(type="booking.created")
    assert event.organization_id == organization.pk
    assert event.data["id" if "id" in event.data else "bookingId"] == booking.pk
    assert mail.outbox == []  # notifyCustomer defaults to false


def test_pending_status_and_notify_customer(api, yoga, contact, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = book(api, yoga, contactId=contact.pk, status="pending", notifyCustomer=True)
    assert response.status_code == 201
    assert response.json()["status"] == "pending"
    assert [m.to for m in mail.outbox] == [["ana@example.com"]]
    assert "Yoga flow" in mail.outbox[0].subject
    assert Notification.objects.filter(contact=contact).count() == 1


def test_free_class_is_no_charge(api, organization, club, contact):
    free = make_class(organization, club, is_free=True, price_before_tax=None)
    body = book(api, free, contactId=contact.pk).json()
    assert body["entranceMethod"] == "direct_payment"
    assert body["payment"]["status"] == "no_charge"
    assert body["payment"]["paidAmount"] == 0


def test_membership_seat_is_no_charge_and_consumes_a_use(api, organization, yoga, contact):
    pass_plan = make_plan(organization, "10-class pass", max_uses=10)
    membership = make_membership(organization, contact, pass_plan, uses_remaining=3)
    response = book(api, yoga, contactId=contact.pk, membershipId=membership.pk)
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["entranceMethod"] == "membership" and body["membershipId"] == membership.pk
    assert body["payment"]["status"] == "no_charge"
    membership.refresh_from_db()
    assert membership.uses_remaining == 2


def test_unlimited_membership_keeps_no_count(api, yoga, contact, membership):
    assert book(api, yoga, contactId=contact.pk, membershipId=membership.pk).status_code == 201
    membership.refresh_from_db()
    assert membership.uses_remaining is None


def _membership_case(organization, contact, reason):
    if reason == "contact_mismatch":
        return make_membership(organization, make_contact(organization))
    if reason == "not_active":
        return make_membership(organization, contact, status="paused")
    if reason == "ended":
        return make_membership(organization, contact, end_date=timezone.now().date() - dt.timedelta(days=1))
    if reason == "not_started":
        return make_membership(organization, contact, start_date=timezone.now().date() + dt.timedelta(days=30))
    if reason == "no_uses_left":
        return make_membership(organization, contact, make_plan(organization, max_uses=5), uses_remaining=0)
    if reason == "not_valid_for_classes":
        return make_membership(organization, contact, make_plan(organization, scopes=("areas",)))
    if reason == "class_type_not_covered":
        other_type = make_class_type(organization, "Pilates")
        return make_membership(organization, contact, make_plan(organization, class_types=[other_type.pk]))
    raise AssertionError(reason)


@pytest.mark.parametrize(
    "reason",
    [
        "contact_mismatch",
        "not_active",
        "ended",
        "not_started",
        "no_uses_left",
        "not_valid_for_classes",
        "class_type_not_covered",
    ],
)
def test_membership_not_valid(api, organization, yoga, contact, reason):
    yoga.class_type = make_class_type(organization, "Yoga")
    yoga.save()
    membership = _membership_case(organization, contact, reason)
    response = book(api, yoga, contactId=contact.pk, membershipId=membership.pk)
    assert response.status_code == 409, response.content
    assert response.json()["code"] == "MEMBERSHIP_NOT_VALID"
    assert response.json()["details"] == {"reason": reason}
    assert not Booking.objects.filter(class_occurrence=yoga).exists()


def test_membership_covering_the_class_type(api, organization, yoga, contact):
    yoga.class_type = make_class_type(organization, "Yoga")
    yoga.save()
    membership = make_membership(organization, contact, make_plan(organization, class_types=[yoga.class_type_id]))
    assert book(api, yoga, contactId=contact.pk, membershipId=membership.pk).status_code == 201


def test_class_full_counts_bookings_and_walk_ins(api, organization, yoga, contact):
    yoga.max_capacity = 3
    yoga.save()
    make_class_booking(yoga, status="confirmed")
    make_class_booking(yoga, status="cancelled")  # a cancelled seat is free again
    make_class_booking(yoga, status="pending")
    make_checkin(organization, club=yoga.club, class_occurrence=yoga)  # standalone walk-in takes a seat
    response = book(api, yoga, contactId=contact.pk)
    assert response.status_code == 409
    assert response.json()["code"] == "CLASS_FULL"
    assert response.json()["details"] == {"allowWaitlist": True}

    yoga.allow_waitlist = False
    yoga.save()
    assert book(api, yoga, contactId=contact.pk).json()["details"] == {"allowWaitlist": False}


def test_a_refused_class_booking_emits_nothing(api, organization, club, contact, django_capture_on_commit_callbacks):
    occurrence = make_class(organization, club, max_capacity=1)
    first = make_contact(organization)
    with django_capture_on_commit_callbacks(execute=True):
        url = f"/v1/platform/classes/{occurrence.id}/bookings"
        assert api.post(url, {"contactId": first.id}, format="json").status_code == 201
        response = api.post(url, {"contactId": contact.id}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "CLASS_FULL"
    assert list(DomainEvent.objects.values_list("type", flat=True)) == ["booking.created", "transaction.created"]


def test_class_cancelled(api, yoga, contact):
    yoga.status = "cancelled"
    yoga.save()
    response = book(api, yoga, contactId=contact.pk)
    assert response.status_code == 409
    assert response.json()["code"] == "CLASS_CANCELLED"


def test_already_booked(api, yoga, contact):
    first = book(api, yoga, contactId=contact.pk).json()
    response = book(api, yoga, contactId=contact.pk)
    assert response.status_code == 409
    assert response.json()["code"] == "ALREADY_BOOKED"
    assert response.json()["details"] == {"bookingId": first["bookingId"]}
    Booking.objects.filter(pk=first["bookingId"]).update(status="cancelled")
    assert book(api, yoga, contactId=contact.pk).status_code == 201


@pytest.mark.parametrize(
    "body, field",
    [
        ({}, "contactId"),
        ({"contactId": "12"}, "contactId"),
        ({"contactId": 99999999}, "contactId"),
        ({"contactId": None}, "contactId"),
        ({"status": "checked_in"}, "status"),
    ],
)
def test_invalid_bodies(api, yoga, contact, body, field):
    body = {"contactId": contact.pk, **body} if field != "contactId" else body
    response = api.post(url(yoga), body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "VALIDATION_ERROR"
    assert field in response.json()["details"]["fields"]


def test_foreign_or_archived_contact_and_foreign_membership_are_400(api, organization, other_organization, yoga):
    foreign_contact = make_contact(other_organization)
    response = book(api, yoga, contactId=foreign_contact.pk)
    assert response.status_code == 400 and "contactId" in response.json()["details"]["fields"]

    archived = make_contact(organization, status="archived")
    response = book(api, yoga, contactId=archived.pk)
    assert response.status_code == 400 and "contactId" in response.json()["details"]["fields"]

    foreign_membership = make_membership(other_organization, foreign_contact)
    response = book(api, yoga, contactId=make_contact(organization).pk, membershipId=foreign_membership.pk)
    assert response.status_code == 400 and "membershipId" in response.json()["details"]["fields"]


def test_other_organization_class_is_404(api, other_organization, contact):
    response = book(api, make_class(other_organization), contactId=contact.pk)
    assert response.status_code == 404


def test_book_into_class_bucket(api, organization, yoga, make_token):
    client = APIClient()
    token = make_token("*")
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    for _ in range(60):
        response = client.post(url(yoga), {}, format="json")
        assert response.status_code == 400
    response = client.post(url(yoga), {}, format="json")
    assert response.status_code == 429
    assert response.json()["code"] == "RATE_LIMITED"
    assert response.json()["details"]["bucket"] == "book-into-class"
    assert response["Retry-After"]
    # The roster read is only in the general bucket, which still has room.
    assert client.get(url(yoga)).status_code == 200
    key = ApiKey.objects.order_by("-id").first()
    (writes,) = ratelimit._states([ratelimit.BOOKING_WRITES], f"api_key:{key.pk}", increment=False)
    assert writes.remaining == writes.limit


@pytest.mark.django_db(transaction=True)
def test_concurrent_requests_never_overbook(organization, club, make_token):
    """50 simultaneous requests for the last 10 seats: exactly 10 confirmed, the rest 409 CLASS_FULL."""
    occurrence = make_class(organization, club, max_capacity=20)
    for _ in range(10):
        make_class_booking(occurrence)
    contacts = [make_contact(organization) for _ in range(50)]
    token = make_token("*")
    barrier = threading.Barrier(len(contacts))
    results = []
    lock = threading.Lock()

    def worker(contact):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
        try:
            barrier.wait()
            response = client.post(url(occurrence), {"contactId": contact.pk}, format="json")
            with lock:
                results.append((response.status_code, response.json().get("code")))
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(c,)) for c in contacts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results).count((201, None)) == 10, results
    assert [r for r in results if r[0] != 201] == [(409, "CLASS_FULL")] * 40
    assert Booking.objects.filter(class_occurrence=occurrence, status="confirmed").count() == 20
