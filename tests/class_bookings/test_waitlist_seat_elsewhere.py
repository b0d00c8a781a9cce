"""A contact on a class's waitlist who gets a seat in that class another way leaves the waitlist (same transaction)."""

import pytest

from apps.bookings.models import Booking, WaitlistEntry
from apps.domain_events.models import DomainEvent
from apps.notifications.models import Notification
from tests.class_bookings.factories import make_class_booking, make_waitlist_entry
from tests.factories import make_class, make_membership


@pytest.fixture
def spin(organization, club):
    """Two seats, one taken: the second seat is free (e.g. freed after the contact joined the waitlist)."""
    occurrence = make_class(organization, club, max_capacity=2, name="Spin")
    make_class_booking(occurrence)
    return occurrence


def class_read(api, occurrence):
    return api.get(f"/v1/platform/classes/{occurrence.pk}").json()


@pytest.mark.parametrize("status", ["pending", "notified"])
def test_booking_the_class_promotes_the_entry(
    api, organization, spin, contact, status, django_capture_on_commit_callbacks
):
    entry = make_waitlist_entry(spin, contact, status=status)
    other = make_waitlist_entry(spin)  # someone else waiting stays waiting
    assert class_read(api, spin)["waitlistCount"] == 2
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"/v1/platform/classes/{spin.pk}/bookings", {"contactId": contact.pk}, format="json")
    assert response.status_code == 201, response.content
    booking_id = response.json()["bookingId"]

    listed = api.get(f"/v1/platform/classes/{spin.pk}/waitlist").json()["data"]
    by_id = {row["id"]: row for row in listed}
    assert (by_id[entry.pk]["status"], by_id[entry.pk]["bookingId"]) == ("promoted", booking_id)
    assert (by_id[other.pk]["status"], by_id[other.pk]["bookingId"]) == ("pending", None)
    assert class_read(api, spin)["waitlistCount"] == 1
    assert class_read(api, spin)["bookedCount"] == 2

    promoted = DomainEvent.objects.filter(type="waitlist.promoted")
    assert [(e.data["id"], e.data["status"], e.data["bookingId"]) for e in promoted] == [
        (entry.pk, "promoted", booking_id)
    ]
    # The seat went to the notified contact: no notice passes on to the next entry.
    assert not DomainEvent.objects.filter(type="waitlist.notified").exists()
    assert not Notification.objects.filter(kind="waitlist.notified").exists()


def test_a_refused_booking_leaves_the_entry_alone(api, organization, club, contact):
    full = make_class(organization, club, max_capacity=1)
    make_class_booking(full)
    entry = make_waitlist_entry(full, contact)
    response = api.post(f"/v1/platform/classes/{full.pk}/bookings", {"contactId": contact.pk}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "CLASS_FULL"
    entry.refresh_from_db()
    assert (entry.status, entry.booking_id) == ("pending", None)
    assert not DomainEvent.objects.filter(type__startswith="waitlist.").exists()


def test_channel_class_booking_promotes_the_entry(api, organization, spin, contact, django_capture_on_commit_callbacks):
    entry = make_waitlist_entry(spin, contact, status="notified")
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(
            "/v1/platform/channel-bookings",
            {
                "externalSource": "classpass",
                "externalId": "CP-9",
                "type": "class",
                "classId": spin.pk,
                "contactId": contact.pk,
            },
            format="json",
        )
    assert response.status_code == 201, response.content
    entry.refresh_from_db()
    assert (entry.status, entry.booking_id) == ("promoted", response.json()["id"])
    assert DomainEvent.objects.filter(type="waitlist.promoted", data__id=entry.pk).count() == 1
    assert class_read(api, spin)["waitlistCount"] == 0


def test_walk_in_into_the_class_removes_the_entry(api, organization, spin, contact, django_capture_on_commit_callbacks):
    entry = make_waitlist_entry(spin, contact, status="notified")
    membership = make_membership(organization, contact)
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post("/v1/platform/checkins", {"membershipId": membership.pk, "classId": spin.pk}, format="json")
    assert response.status_code == 201, response.content
    entry.refresh_from_db()
    assert (entry.status, entry.booking_id) == ("removed", None)
    removed = DomainEvent.objects.filter(type="waitlist.removed")
    assert [(e.data["id"], e.data["status"]) for e in removed] == [(entry.pk, "removed")]
    assert not DomainEvent.objects.filter(type="waitlist.notified").exists()
    body = class_read(api, spin)
    assert (body["bookedCount"], body["waitlistCount"]) == (2, 0)


def test_promote_still_emits_one_event(api, organization, spin, contact, django_capture_on_commit_callbacks):
    entry = make_waitlist_entry(spin, contact)
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"/v1/platform/classes/{spin.pk}/waitlist/{entry.pk}/promote", {}, format="json")
    assert response.status_code == 201, response.content
    entry.refresh_from_db()
    booking = Booking.objects.get(pk=response.json()["bookingId"])
    assert (entry.status, entry.booking_id) == ("promoted", booking.pk)
    assert DomainEvent.objects.filter(type="waitlist.promoted").count() == 1


def test_moving_a_booking_into_the_class_promotes_the_entry(
    api, organization, club, spin, contact, django_capture_on_commit_callbacks
):
    elsewhere = make_class(organization, club, name="Other")
    booking = make_class_booking(elsewhere, contact)
    entry = make_waitlist_entry(spin, contact)
    with django_capture_on_commit_callbacks(execute=True):
        response = api.patch(f"/v1/platform/bookings/{booking.pk}", {"classId": spin.pk}, format="json")
    assert response.status_code == 200, response.content
    entry.refresh_from_db()
    assert (entry.status, entry.booking_id) == ("promoted", booking.pk)
    assert WaitlistEntry.objects.filter(class_occurrence=spin, status__in=["pending", "notified"]).count() == 0
