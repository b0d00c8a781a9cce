"""POST /classes/{id}/cancel and DELETE /classes/{id} (this / all_future)."""

from django.core import mail

from apps.bookings.models import Booking
from apps.classes.models import ClassOccurrence, ClassSeries
from apps.domain_events.models import DomainEvent
from apps.notifications.models import Notification
from tests.classes.conftest import book, make_occurrence, wait


def weekly(create_class, **extra):
    body = create_class(
        recurrence={"frequency": "weekly", "daysOfWeek": ["monday"], "ends": {"type": "after", "occurrences": 5}},
        **extra,
    )
    return list(ClassOccurrence.objects.filter(series_id=body["recurrenceId"]).order_by("occurrence_index"))


def test_cancel_keeps_bookings_and_notifies_when_asked(
    api, organization, club, contact, instructor, django_capture_on_commit_callbacks
):
    occurrence = make_occurrence(organization, club, max_capacity=3)
    occurrence.instructors.add(instructor)
    booking = book(occurrence, contact)
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(
            f"/v1/platform/classes/{occurrence.id}/cancel",
            {"reason": "Coach ill", "notifyCustomer": True},
            format="json",
        )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "cancelled" and body["bookedCount"] == 1
    booking.refresh_from_db()
    assert booking.status == "confirmed"
    occurrence.refresh_from_db()
    assert occurrence.cancellation_reason == "Coach ill" and occurrence.cancelled_at is not None
    customer = [m for m in mail.outbox if m.to == ["ana@example.com"]]
    assert len(customer) == 1 and "Coach ill" in customer[0].body
    assert Notification.objects.get(contact=contact).kind == "class.cancelled"
    coach = [m for m in mail.outbox if m.to == ["iris@example.com"]]
    assert "METHOD:CANCEL" in coach[0].attachments[0][1]
    assert DomainEvent.objects.get(type="class.cancelled").data["status"] == "cancelled"
    again = api.post(f"/v1/platform/classes/{occurrence.id}/cancel", {}, format="json")
    assert again.status_code == 409
    assert again.json()["code"] == "INVALID_STATE_TRANSITION"
    assert again.json()["details"] == {"currentStatus": "cancelled"}


def test_cancel_without_notify_tells_no_customer(api, organization, club, contact, django_capture_on_commit_callbacks):
    occurrence = make_occurrence(organization, club)
    book(occurrence, contact)
    with django_capture_on_commit_callbacks(execute=True):
        assert api.post(f"/v1/platform/classes/{occurrence.id}/cancel").status_code == 200
    assert mail.outbox == [] and not Notification.objects.exists()


def test_cancel_all_future_cancels_the_series(api, create_class):
    rows = weekly(create_class)
    api.post(f"/v1/platform/classes/{rows[3].id}/cancel", format="json")
    response = api.post(f"/v1/platform/classes/{rows[1].id}/cancel?scope=all_future", format="json")
    assert response.status_code == 200
    assert response.json()["recurrence"]["status"] == "cancelled"
    statuses = list(ClassOccurrence.objects.order_by("occurrence_index").values_list("status", flat=True))
    assert statuses == ["active"] + ["cancelled"] * 4
    assert ClassSeries.objects.get().status == "cancelled"
    # each event shows the class as GET does, with the cancelled series
    events = DomainEvent.objects.filter(type="class.cancelled").order_by("created_at", "id")
    payloads = {event.data["id"]: event.data for event in events}
    assert set(payloads) == {row.id for row in rows[1:]}
    for class_id in (rows[1].id, rows[4].id):
        assert payloads[class_id]["recurrence"]["status"] == "cancelled"
        assert payloads[class_id] == api.get(f"/v1/platform/classes/{class_id}").json()
    response = api.post(f"/v1/platform/classes/{rows[1].id}/cancel?scope=all_future", format="json")
    assert response.status_code == 409


def test_delete_one_off(api, organization, club, contact, django_capture_on_commit_callbacks):
    occurrence = make_occurrence(organization, club)
    old = book(occurrence, contact, status="cancelled")
    with django_capture_on_commit_callbacks(execute=True):
        response = api.delete(f"/v1/platform/classes/{occurrence.id}")
    assert response.status_code == 204 and response.content == b""
    assert not ClassOccurrence.objects.exists()
    old.refresh_from_db()
    assert old.class_occurrence_id is None and old.status == "cancelled"
    assert DomainEvent.objects.get(type="class.deleted").data == {"id": occurrence.id, "recurrenceId": None}
    assert api.get(f"/v1/platform/classes/{occurrence.id}").status_code == 404


def test_delete_refused_with_active_booking_or_waitlist(api, organization, club, contact):
    booked = make_occurrence(organization, club)
    book(booked, contact)
    waiting = make_occurrence(organization, club)
    wait(waiting, contact, status="notified")
    for occurrence in (booked, waiting):
        response = api.delete(f"/v1/platform/classes/{occurrence.id}")
        assert response.status_code == 409
        assert response.json()["code"] == "CLASS_HAS_ACTIVE_BOOKINGS"
        assert response.json()["details"] == {"classIds": [occurrence.id]}
    assert ClassOccurrence.objects.count() == 2
    # Cancelling instead is allowed, and keeps the booking.
    assert api.post(f"/v1/platform/classes/{booked.id}/cancel").status_code == 200
    assert Booking.objects.get().status == "confirmed"


def test_delete_all_future_ends_the_series_and_last_ones_remove_the_rule(api, create_class, contact):
    rows = weekly(create_class)
    book(rows[4], contact)
    response = api.delete(f"/v1/platform/classes/{rows[2].id}?scope=all_future")
    assert response.status_code == 409 and response.json()["details"] == {"classIds": [rows[4].id]}
    assert ClassOccurrence.objects.count() == 5
    Booking.objects.update(status="cancelled")
    assert api.delete(f"/v1/platform/classes/{rows[2].id}?scope=all_future").status_code == 204
    assert list(ClassOccurrence.objects.values_list("id", flat=True).order_by("id")) == [rows[0].id, rows[1].id]
    series = ClassSeries.objects.get()
    assert series.ends_type == "until" and series.ends_date == rows[1].start_time
    assert api.delete(f"/v1/platform/classes/{rows[1].id}").status_code == 204
    assert ClassSeries.objects.exists()
    assert api.delete(f"/v1/platform/classes/{rows[0].id}?scope=all_future").status_code == 204
    assert not ClassSeries.objects.exists()


def test_delete_bad_scope(api, organization, club):
    occurrence = make_occurrence(organization, club)
    response = api.delete(f"/v1/platform/classes/{occurrence.id}?scope=some")
    assert response.status_code == 400 and response.json()["code"] == "VALIDATION_ERROR"
