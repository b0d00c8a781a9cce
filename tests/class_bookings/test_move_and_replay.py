"""Moving a class seat (PATCH /bookings/{id} classId, through move_class_booking) and Idempotency-Key replays."""

from apps.bookings.models import Booking, WaitlistEntry
from tests.class_bookings.factories import make_class_booking, make_waitlist_entry
from tests.factories import make_class, make_contact


def test_move_seat_to_another_class(api, organization, club, contact):
    source = make_class(organization, club, max_capacity=1, name="Monday")
    target = make_class(organization, club, max_capacity=2, name="Tuesday")
    booking = make_class_booking(source, contact)
    waiting = make_waitlist_entry(source)
    response = api.patch(f"/v1/platform/bookings/{booking.pk}", {"classId": target.pk}, format="json")
    assert response.status_code == 200, response.content
    booking.refresh_from_db()
    assert booking.class_occurrence_id == target.pk and booking.start_time == target.start_time
    roster = api.get(f"/v1/platform/classes/{target.pk}/bookings").json()["data"]
    assert [r["bookingId"] for r in roster] == [booking.pk]
    waiting.refresh_from_db()
    assert waiting.status == "notified"  # the freed seat in the source class was offered


def test_move_refused_when_target_full_or_already_booked(api, organization, club, contact):
    source = make_class(organization, club)
    full = make_class(organization, club, max_capacity=1)
    make_class_booking(full)
    booking = make_class_booking(source, contact)
    response = api.patch(f"/v1/platform/bookings/{booking.pk}", {"classId": full.pk}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "CLASS_FULL"

    other = make_class(organization, club)
    existing = make_class_booking(other, contact)
    response = api.patch(f"/v1/platform/bookings/{booking.pk}", {"classId": other.pk}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "ALREADY_BOOKED"
    assert response.json()["details"] == {"bookingId": existing.pk}
    assert Booking.objects.get(pk=booking.pk).class_occurrence_id == source.pk


def test_idempotent_replay_books_once(api, organization, club):
    occurrence = make_class(organization, club)
    contact = make_contact(organization)
    url = f"/v1/platform/classes/{occurrence.pk}/bookings"
    first = api.post(url, {"contactId": contact.pk}, format="json", HTTP_IDEMPOTENCY_KEY="seat-1")
    again = api.post(url, {"contactId": contact.pk}, format="json", HTTP_IDEMPOTENCY_KEY="seat-1")
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert Booking.objects.filter(class_occurrence=occurrence).count() == 1
    assert WaitlistEntry.objects.count() == 0
