"""The class waitlist: join, list, promote, remove, and the notice when a seat frees."""

import datetime as dt

import pytest
from django.core import mail
from django.utils import timezone

from apps.bookings.models import Booking, WaitlistEntry
from apps.domain_events.models import DomainEvent
from apps.notifications.channels import LoggingMessagingBackend
from apps.notifications.models import Notification
from tests.class_bookings.factories import make_class_booking, make_waitlist_entry
from tests.factories import make_class, make_contact


def wl_url(occurrence, entry=None, verb=None):
    url = f"/v1/platform/classes/{occurrence.pk}/waitlist"
    if entry is not None:
        url += f"/{entry.pk if hasattr(entry, 'pk') else entry}"
    if verb:
        url += f"/{verb}"
    return url


@pytest.fixture
def full_class(organization, club):
    occurrence = make_class(organization, club, max_capacity=2, name="Spin")
    make_class_booking(occurrence)
    make_class_booking(occurrence)
    return occurrence


def join(api, occurrence, contact, **extra):
    return api.post(wl_url(occurrence), {"contactId": contact.pk, **extra}, format="json")


def test_join_a_full_class(api, organization, full_class, contact, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = join(api, full_class, contact, notes="any bike")
    assert response.status_code == 201, response.content
    body = response.json()
    entry = WaitlistEntry.objects.get()
    assert response["Location"].endswith(f"/waitlist/{entry.pk}")
    assert body == {
        "id": entry.pk,
        "classId": full_class.pk,
        "contactId": contact.pk,
        "contactName": "Ana Lopez",
        "contactEmail": "ana@example.com",
        "position": 1,
        "status": "pending",
        "bookingId": None,
        "notes": "any bike",
        "notifiedAt": None,
        "createdAt": body["createdAt"],
    }
    event = DomainEvent.objects.get(type="waitlist.joined")
    assert event.data["id"] == entry.pk and event.data["contactEmail"] == "ana@example.com"  # stored whole
    second = join(api, full_class, make_contact(organization)).json()
    assert second["position"] == 2


def test_join_conflicts(api, organization, club, full_class, contact):
    not_full = make_class(organization, club, max_capacity=5)
    make_class_booking(not_full)
    response = join(api, not_full, contact)
    assert response.status_code == 409
    assert response.json()["code"] == "CLASS_NOT_FULL" and response.json()["details"] == {"spotsLeft": 4}

    uncapped = make_class(organization, club, max_capacity=None)
    response = join(api, uncapped, contact)
    assert response.json()["code"] == "CLASS_NOT_FULL"

    booked = Booking.objects.filter(class_occurrence=full_class).first()
    response = join(api, full_class, booked.contact)
    assert response.json()["code"] == "ALREADY_BOOKED" and response.json()["details"] == {"bookingId": booked.pk}

    entry = join(api, full_class, contact).json()
    response = join(api, full_class, contact)
    assert response.status_code == 409
    assert response.json()["code"] == "ALREADY_ON_WAITLIST" and response.json()["details"] == {"entryId": entry["id"]}

    full_class.allow_waitlist = False
    full_class.save()
    response = join(api, full_class, make_contact(organization))
    assert response.json()["code"] == "WAITLIST_NOT_ALLOWED"

    full_class.status = "cancelled"
    full_class.save()
    response = join(api, full_class, make_contact(organization))
    assert response.json()["code"] == "CLASS_CANCELLED"


def test_join_validation(api, other_organization, full_class):
    response = api.post(wl_url(full_class), {}, format="json")
    assert response.status_code == 400 and "contactId" in response.json()["details"]["fields"]
    response = join(api, full_class, make_contact(other_organization))
    assert response.status_code == 400 and "contactId" in response.json()["details"]["fields"]


def test_list_is_ordered_by_position_and_filters_status(client_for, organization, full_class):
    third = make_waitlist_entry(full_class, position=3)
    first = make_waitlist_entry(full_class, position=1, status="notified", notified_at=timezone.now())
    second = make_waitlist_entry(full_class, position=2, status="removed")
    client = client_for("bookings:read")
    body = client.get(wl_url(full_class)).json()
    assert [e["id"] for e in body["data"]] == [first.pk, second.pk, third.pk] and body["total"] == 3
    assert body["data"][0]["contactEmail"] is None  # no contacts:read
    assert body["data"][0]["notifiedAt"].endswith("Z")
    filtered = client.get(wl_url(full_class) + "?status=pending,notified").json()
    assert [e["id"] for e in filtered["data"]] == [first.pk, third.pk]
    assert client.get(wl_url(full_class) + "?status=waiting").status_code == 400


def test_promote_books_the_contact(api, organization, full_class, contact, django_capture_on_commit_callbacks):
    entry = make_waitlist_entry(full_class, contact, notes="please")
    full_class.max_capacity = 3
    full_class.save()
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(wl_url(full_class, entry, "promote"))
    assert response.status_code == 201, response.content
    assert response["X-RateLimit-Limit"] == "60"  # counted in the book-into-class bucket
    body = response.json()
    assert body["contactId"] == contact.pk and body["classId"] == full_class.pk
    assert body["status"] == "confirmed" and body["entranceMethod"] == "direct_payment"
    assert response["Location"] == f"/v1/platform/bookings/{body['bookingId']}"
    entry.refresh_from_db()
    assert entry.status == "promoted" and entry.booking_id == body["bookingId"]
    types = set(DomainEvent.objects.values_list("type", flat=True))
    assert {"booking.created", "waitlist.promoted"} <= types


def test_promote_needs_a_free_spot_and_an_active_entry(api, full_class, contact):
    entry = make_waitlist_entry(full_class, contact)
    response = api.post(wl_url(full_class, entry, "promote"))
    assert response.status_code == 409
    assert response.json()["code"] == "CLASS_FULL" and response.json()["details"] == {"allowWaitlist": True}
    entry.refresh_from_db()
    assert entry.status == "pending"

    removed = make_waitlist_entry(full_class, status="removed")
    response = api.post(wl_url(full_class, removed, "promote"))
    assert response.status_code == 409
    assert response.json()["code"] == "INVALID_STATE_TRANSITION"
    assert response.json()["details"] == {"currentStatus": "removed"}


def test_entry_of_another_class_is_404(api, organization, club, full_class):
    other = make_class(organization, club)
    entry = make_waitlist_entry(other)
    assert api.post(wl_url(full_class, entry, "promote")).status_code == 404
    assert api.delete(wl_url(full_class, entry)).status_code == 404
    assert api.delete(wl_url(full_class, 987654)).status_code == 404


def test_remove_entry(api, full_class, contact, django_capture_on_commit_callbacks):
    entry = make_waitlist_entry(full_class, contact)
    with django_capture_on_commit_callbacks(execute=True):
        response = api.delete(wl_url(full_class, entry))
    assert response.status_code == 204 and response.content == b""
    entry.refresh_from_db()
    assert entry.status == "removed"
    assert DomainEvent.objects.filter(type="waitlist.removed").count() == 1
    again = api.delete(wl_url(full_class, entry))
    assert again.status_code == 409 and again.json()["code"] == "INVALID_STATE_TRANSITION"


def test_put_and_patch_are_not_offered(api, full_class):
    entry = make_waitlist_entry(full_class)
    assert api.patch(wl_url(full_class, entry), {}, format="json").status_code == 405
    response = api.put(wl_url(full_class), {}, format="json")
    assert response.status_code == 405 and "POST" in response["Allow"]


def test_cancelling_a_booking_notifies_the_first_pending_entry(
    api, organization, full_class, django_capture_on_commit_callbacks
):
    first = make_waitlist_entry(full_class, make_contact(organization, email="first@example.com", phone="+34600"))
    second = make_waitlist_entry(full_class)
    booking = Booking.objects.filter(class_occurrence=full_class).first()
    LoggingMessagingBackend.sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"/v1/platform/bookings/{booking.pk}/cancel", {}, format="json")
    assert response.status_code == 200, response.content
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.status == "notified" and first.notified_at is not None
    assert second.status == "pending"
    assert [m.to for m in mail.outbox] == [["first@example.com"]]
    assert "Spin" in mail.outbox[0].subject
    assert Notification.objects.filter(contact=first.contact, kind="waitlist.notified").count() == 1
    assert [m["contactId"] for m in LoggingMessagingBackend.sent] == [first.contact_id]
    event = DomainEvent.objects.get(type="waitlist.notified")
    assert event.data["id"] == first.pk and event.data["status"] == "notified"
    # Both active entries still count as waiting (waitlistCount = pending + notified).
    listed = api.get(wl_url(full_class) + "?status=pending,notified").json()
    assert listed["total"] == 2


def test_a_second_freed_seat_notifies_the_next_entry(organization, full_class):
    from apps.bookings.services import cancel_booking

    first = make_waitlist_entry(full_class)
    second = make_waitlist_entry(full_class)
    for booking in Booking.objects.filter(class_occurrence=full_class):
        cancel_booking(booking)
    assert list(WaitlistEntry.objects.order_by("position").values_list("status", flat=True)) == [
        "notified",
        "notified",
    ]
    assert first.pk != second.pk


def test_no_notice_for_a_past_or_cancelled_class(organization, club):
    from apps.bookings.services import cancel_booking

    past = make_class(organization, club, max_capacity=1, start=timezone.now() - dt.timedelta(days=1))
    booking = make_class_booking(past)
    entry = make_waitlist_entry(past)
    cancel_booking(booking)
    entry.refresh_from_db()
    assert entry.status == "pending"


def test_removing_a_notified_entry_passes_the_notice_on(api, organization, full_class):
    from apps.bookings.services import cancel_booking

    first = make_waitlist_entry(full_class)
    second = make_waitlist_entry(full_class)
    cancel_booking(Booking.objects.filter(class_occurrence=full_class).first())
    assert api.delete(wl_url(full_class, first)).status_code == 204
    second.refresh_from_db()
    assert second.status == "notified"


def test_membership_seat_gives_its_use_back_when_cancelled(api, organization, club, contact):
    from tests.factories import make_membership, make_plan

    occurrence = make_class(organization, club)
    membership = make_membership(organization, contact, make_plan(organization, max_uses=10), uses_remaining=5)
    body = api.post(
        f"/v1/platform/classes/{occurrence.pk}/bookings",
        {"contactId": contact.pk, "membershipId": membership.pk},
        format="json",
    ).json()
    membership.refresh_from_db()
    assert membership.uses_remaining == 4
    assert api.post(f"/v1/platform/bookings/{body['bookingId']}/cancel", {}, format="json").status_code == 200
    membership.refresh_from_db()
    assert membership.uses_remaining == 5
