"""deliver_notification retries on ConnectionError and on a lost database connection without sending twice to
contacts already served."""

import pytest
from celery.exceptions import Retry
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.db import OperationalError, connection

from apps.contacts.models import Contact
from apps.notifications.channels import LoggingMessagingBackend
from apps.notifications.models import Notification, NotificationDelivery
from apps.notifications.services import notify_contacts
from apps.notifications.tasks import deliver_notification


@pytest.fixture(autouse=True)
def _clear_messaging():
    LoggingMessagingBackend.sent.clear()
    yield
    LoggingMessagingBackend.sent.clear()


@pytest.fixture
def flaky_mail(settings):
    """The e-mail backend raises ConnectionError once, for the first message to bob@example.com."""
    settings.EMAIL_BACKEND = "tests.notifications.test_idempotent_delivery.FlakyBackend"
    FlakyBackend.failures = {"bob@example.com": 1}
    yield
    FlakyBackend.failures = {}


class FlakyBackend(EmailBackend):
    failures: dict = {}

    def send_messages(self, messages):
        for message in messages:
            for to in message.to:
                if FlakyBackend.failures.get(to):
                    FlakyBackend.failures[to] -= 1
                    raise ConnectionError("SMTP went away")
        return super().send_messages(messages)


def served(contact):
    return (
        [m.subject for m in mail.outbox if m.to == [contact.email]],
        list(Notification.objects.filter(contact=contact).values_list("title", flat=True)),
        [m["text"] for m in LoggingMessagingBackend.sent if m["contactId"] == contact.pk],
    )


def test_retry_after_a_failed_email_sends_only_what_is_missing(organization, contact, flaky_mail):
    bob = Contact.objects.create(organization=organization, first_name="Bob", email="bob@example.com", phone="+34 61")
    (payload,) = _queued_payloads(organization, [contact, bob], subject="Cancelled", body="Sorry")
    with pytest.raises(Retry):  # eager: the task asks for a retry of the whole payload
        deliver_notification.apply(args=[payload])
    assert served(contact) == (["Cancelled"], ["Cancelled"], ["Sorry"])
    assert served(bob) == ([], ["Cancelled"], [])  # in-app went out before the e-mail failed

    deliver_notification.apply(args=[payload])  # the retry (same payload)
    for person in (contact, bob):
        assert served(person) == (["Cancelled"], ["Cancelled"], ["Sorry"])
    assert NotificationDelivery.objects.count() == 6


def test_a_lost_database_connection_is_retried_not_lost(organization, contact):
    """A worker running the task while PostgreSQL restarts: the task asks for a retry, which sends everything."""
    (payload,) = _queued_payloads(organization, [contact], subject="Moved", body="New time")

    def lost(execute, sql, params, many, context):
        if sql.lstrip().upper().startswith("INSERT") and "notification" in sql:
            raise OperationalError("server closed the connection unexpectedly")
        return execute(sql, params, many, context)

    with connection.execute_wrapper(lost), pytest.raises(Retry):
        deliver_notification.apply(args=[payload])
    assert served(contact) == ([], [], [])
    deliver_notification.apply(args=[payload])  # the retry, once the database is back
    assert served(contact) == (["Moved"], ["Moved"], ["New time"])


def test_running_the_same_payload_again_sends_nothing(organization, contact):
    (payload,) = _queued_payloads(organization, [contact])
    assert len(payload["id"]) == 32  # a stable id travels with the payload
    deliver_notification.apply(args=[payload])
    deliver_notification.apply(args=[payload])  # what a retry does
    assert served(contact) == (["Hello"], ["Hello"], ["Body"])


def test_a_payload_without_id_is_still_delivered_once(organization, contact):
    payload = {
        "organization_id": organization.pk,
        "contact_ids": [contact.pk],
        "kind": "k",
        "subject": "Old",
        "body": "Queued before ids",
        "data": {},
        "channels": ["email", "in_app", "messaging"],
        "attachments": [],
    }
    deliver_notification.apply(args=[payload])
    deliver_notification.apply(args=[payload])
    assert served(contact) == (["Old"], ["Old"], ["Queued before ids"])


def test_two_notifications_with_the_same_text_are_both_delivered(
    organization, contact, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        notify_contacts(organization, [contact.pk], kind="k", subject="Same", body="Same")
        notify_contacts(organization, [contact.pk], kind="k", subject="Same", body="Same")
    assert served(contact) == (["Same", "Same"], ["Same", "Same"], ["Same", "Same"])


def _queued_payloads(organization, contacts, subject="Hello", body="Body"):
    """Capture the payload notify_contacts queues (without running it)."""
    from unittest import mock

    from django.db import transaction

    with (
        mock.patch.object(deliver_notification, "delay") as delay,
        mock.patch.object(transaction, "on_commit", side_effect=lambda fn: fn()),
    ):
        notify_contacts(organization, [c.pk for c in contacts], kind="k", subject=subject, body=body)
    return [call.args[0] for call in delay.call_args_list]
