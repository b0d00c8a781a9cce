import datetime as dt

from django.utils import timezone

from apps.billing.models import Plan
from apps.bookings.models import Booking, WaitlistEntry
from apps.classes.models import ClassOccurrence
from apps.domain_events.models import DomainEvent
from apps.memberships.models import Membership
from tests.bookings.factories import area_booking, contact_for
from tests.class_bookings.factories import make_class_booking, make_waitlist_entry
from tests.factories import make_class, make_contact


def test_archive_cancels_memberships_and_future_bookings_restore_keeps_them(
    api, organization, club, area, contact, django_capture_on_commit_callbacks
):
    now = timezone.now()
    plan = Plan.objects.create(organization=organization, name="Monthly", price="50.00")
    active = Membership.objects.create(organization=organization, contact=contact, plan=plan, start_date=now.date())
    paused = Membership.objects.create(
        organization=organization, contact=contact, plan=plan, start_date=now.date(), status="paused"
    )
    expired = Membership.objects.create(
        organization=organization, contact=contact, plan=plan, start_date=now.date(), status="expired"
    )
    future = area_booking(organization, area=area, contact=contact, start=now + dt.timedelta(days=1))
    past = area_booking(organization, area=area, contact=contact, start=now - dt.timedelta(days=1))
    klass = ClassOccurrence.objects.create(
        organization=organization,
        club=club,
        name="Yoga",
        start_time=now + dt.timedelta(days=2),
        end_time=now + dt.timedelta(days=2, hours=1),
        max_capacity=1,
    )
    seat = Booking.objects.create(
        organization=organization,
        type="class",
        club=club,
        class_occurrence=klass,
        contact=contact,
        start_time=klass.start_time,
        end_time=klass.end_time,
    )
    waiting = WaitlistEntry.objects.create(
        organization=organization, class_occurrence=klass, contact=contact_for(organization), position=1
    )
    someone_else = area_booking(organization, area=area, start=now + dt.timedelta(days=3))

    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"/v1/platform/contacts/{contact.id}/archive", {"reason": "left the club"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "archived"

    for obj in (active, paused, expired, future, past, seat, waiting, someone_else):
        obj.refresh_from_db()
    assert (active.status, paused.status, expired.status) == ("cancelled", "cancelled", "expired")
    assert active.cancelled_at and active.cancellation_reason == "left the club"
    assert (future.status, seat.status) == ("cancelled", "cancelled")
    assert future.cancellation_reason == "left the club"
    assert past.status == "confirmed" and someone_else.status == "confirmed"
    assert waiting.status == "notified"
    types = list(DomainEvent.objects.values_list("type", flat=True))
    assert types.count("membership.cancelled") == 2
    assert types.count("booking.cancelled") == 2
    assert "contact.archived" in types and "availability.changed" in types and "waitlist.notified" in types

    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"/v1/platform/contacts/{contact.id}/restore")
    assert response.status_code == 200 and response.json()["status"] == "active"
    for obj in (active, paused, future, seat):
        obj.refresh_from_db()
    assert (active.status, paused.status, future.status, seat.status) == ("cancelled",) * 4


def test_archive_rolls_back_entirely_on_failure(api, organization, area, contact, monkeypatch):
    now = timezone.now()
    b1 = area_booking(organization, area=area, contact=contact, start=now + dt.timedelta(days=1))
    area_booking(organization, area=area, contact=contact, start=now + dt.timedelta(days=2))
    import apps.bookings.services as booking_services

    real = booking_services.cancel_booking
    calls = []

    def flaky(booking, **kwargs):
        calls.append(booking.pk)
        if len(calls) == 2:
            raise RuntimeError("boom")
        return real(booking, **kwargs)

    monkeypatch.setattr(booking_services, "cancel_booking", flaky)
    api.raise_request_exception = False
    response = api.post(f"/v1/platform/contacts/{contact.id}/archive")
    assert response.status_code == 500
    contact.refresh_from_db()
    b1.refresh_from_db()
    assert contact.status == "active" and b1.status == "confirmed"


def test_archive_removes_waitlist_entries_of_future_classes(
    api, organization, club, contact, django_capture_on_commit_callbacks
):
    full = make_class(organization, club, max_capacity=1)
    make_class_booking(full)
    notified_class = make_class(organization, club, max_capacity=1)  # its one seat freed up: the entry was told
    past = make_class(organization, club, start=timezone.now() - dt.timedelta(days=1), max_capacity=1)
    pending = make_waitlist_entry(full, contact)
    notified = make_waitlist_entry(notified_class, contact, status="notified", notified_at=timezone.now())
    next_in_line = make_waitlist_entry(notified_class, make_contact(organization))
    old = make_waitlist_entry(past, contact)

    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"/v1/platform/contacts/{contact.pk}/archive", {}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "archived"

    for entry in (pending, notified, next_in_line, old):
        entry.refresh_from_db()
    assert (pending.status, notified.status) == ("removed", "removed")
    assert next_in_line.status == "notified"  # the notice passes on to the next person
    assert old.status == "pending"  # a past class is left alone
    removed = DomainEvent.objects.filter(type="waitlist.removed").values_list("data__id", flat=True)
    assert sorted(removed) == sorted([pending.pk, notified.pk])

    # the waitlist reads show it, and nothing is left to promote for the archived contact
    rows = api.get(f"/v1/platform/classes/{full.pk}/waitlist").json()["data"]
    assert [(r["id"], r["status"]) for r in rows] == [(pending.pk, "removed")]
    response = api.post(f"/v1/platform/classes/{full.pk}/waitlist/{pending.pk}/promote", {}, format="json")
    assert response.status_code == 409 and response.json()["details"] == {"currentStatus": "removed"}

    # restoring does not put the entries back
    assert api.post(f"/v1/platform/contacts/{contact.pk}/restore").status_code == 200
    assert WaitlistEntry.objects.get(pk=pending.pk).status == "removed"
