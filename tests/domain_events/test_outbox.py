"""Domain events are written in the operation's transaction; only the fan-out to subscribers waits for the commit."""

import datetime as dt

import psycopg
import pytest
from django.db import OperationalError
from django.utils import timezone

from apps.classes.models import ClassOccurrence
from apps.contacts.models import Contact
from apps.domain_events import services
from apps.domain_events.models import DomainEvent

CONTACTS = "/v1/platform/contacts"
CHANNEL = "/v1/platform/channel-bookings"


def create_contact(api):
    response = api.post(CONTACTS, {"firstName": "Noa", "lastName": "Vidal", "email": "noa@example.com"}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def test_committed_write_keeps_its_event_when_the_fan_out_never_runs(api, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        body = create_contact(api)
    assert callbacks  # the fan-out was scheduled and, here, never runs
    event = DomainEvent.objects.get()
    assert (event.type, event.organization_id) == ("contact.created", Contact.objects.get().organization_id)
    assert event.data == body == api.get(f"{CONTACTS}/{body['id']}").json()


def test_a_failing_subscriber_does_not_fail_the_committed_write(api, monkeypatch, django_capture_on_commit_callbacks):
    called = []

    def failing_subscriber(event):
        called.append(event.type)
        raise RuntimeError("delivery is down")

    monkeypatch.setattr(services, "_subscribers", [failing_subscriber])
    with django_capture_on_commit_callbacks(execute=True):
        body = create_contact(api)
    assert called == ["contact.created"]
    assert list(DomainEvent.objects.values_list("type", "data")) == [("contact.created", body)]


def test_a_subscriber_that_loses_the_database_after_the_commit_logs_one_line_without_a_trace(
    api, monkeypatch, django_capture_on_commit_callbacks, caplog
):
    """A database outage right after the commit (the webhooks relay's own transaction meets it) is an outage, not a
    bug: one ERROR line naming it, no trace; the event stays stored for the beat sweep."""

    def cut_off(events):
        raise OperationalError("server closed the connection unexpectedly") from psycopg.OperationalError("closed")

    monkeypatch.setattr(services, "_batch_subscribers", [cut_off])
    with django_capture_on_commit_callbacks(execute=True):
        create_contact(api)
    (record,) = [r for r in caplog.records if r.name == "apps.domain_events"]
    assert record.levelname == "ERROR" and "database unreachable" in record.getMessage()
    assert record.exc_info is None
    assert DomainEvent.objects.filter(sequence__isnull=True).count() == 1


def test_subscribers_are_called_only_after_commit(api, monkeypatch, django_capture_on_commit_callbacks):
    seen = []
    monkeypatch.setattr(services, "_subscribers", [lambda event: seen.append((event.type, event.pk))])
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        create_contact(api)
    assert seen == []
    for callback in callbacks:
        callback()
    assert seen == [("contact.created", DomainEvent.objects.get().pk)]


@pytest.fixture
def full_class(organization, club, contact):
    start = (timezone.now() + dt.timedelta(days=3)).replace(minute=0, second=0, microsecond=0)
    occurrence = ClassOccurrence.objects.create(
        organization=organization,
        club=club,
        name="Spin",
        start_time=start,
        end_time=start + dt.timedelta(hours=1),
        max_capacity=1,
    )
    from apps.bookings.class_services import book_into_class

    book_into_class(organization=organization, occurrence=occurrence, contact=contact)
    DomainEvent.objects.all().delete()  # the seat taken before the test
    return occurrence


def test_a_conflict_after_a_partial_write_leaves_no_event(api, full_class, django_capture_on_commit_callbacks):
    """The channel creates the new contact first, then finds the class full: both writes and their events go."""
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(
            CHANNEL,
            {
                "externalSource": "classpass",
                "externalId": "CP-9",
                "type": "class",
                "classId": full_class.id,
                "contact": {"firstName": "Kim", "email": "kim@example.com"},
            },
            format="json",
        )
    assert response.status_code == 409, response.content
    assert response.json()["code"] == "CLASS_FULL"
    assert not Contact.objects.filter(email="kim@example.com").exists()
    assert not DomainEvent.objects.exists()
