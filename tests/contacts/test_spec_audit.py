"""Final spec audit (A3): archiving a contact also clears its claims on future class seats."""

import datetime as dt

from django.utils import timezone

from apps.bookings.models import WaitlistEntry
from apps.domain_events.models import DomainEvent
from tests.class_bookings.factories import make_class, make_class_booking, make_contact, make_waitlist_entry


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
