"""The notification layer: channels written after commit, and the iCalendar builder."""

import datetime as dt

import pytest
from django.core import mail

from apps.contacts.models import Contact
from apps.notifications.channels import LoggingMessagingBackend
from apps.notifications.ics import CalendarEvent, build_calendar
from apps.notifications.models import Notification
from apps.notifications.services import notify_contacts


@pytest.fixture(autouse=True)
def _clear_messaging():
    LoggingMessagingBackend.sent.clear()
    yield
    LoggingMessagingBackend.sent.clear()


def test_notify_contacts_after_commit_on_every_channel(organization, contact, django_capture_on_commit_callbacks):
    silent = Contact.objects.create(organization=organization, first_name="No", phone="+34 600")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        notify_contacts(
            organization,
            [contact.id, silent.id, contact.id, None],
            kind="class.cancelled",
            subject="Class cancelled",
            body="Sorry",
            data={"classIds": [1]},
            attachments=[("a.ics", "BEGIN:VCALENDAR", "text/calendar")],
        )
    assert mail.outbox == [] and not Notification.objects.exists()  # nothing before commit
    for callback in callbacks:
        callback()
    assert [m.to for m in mail.outbox] == [["ana@example.com"]]  # the contact without e-mail gets none
    assert mail.outbox[0].attachments == [("a.ics", "BEGIN:VCALENDAR", "text/calendar")]
    rows = Notification.objects.order_by("contact_id")
    assert [(n.contact_id, n.kind, n.title, n.body, n.data) for n in rows] == [
        (contact.id, "class.cancelled", "Class cancelled", "Sorry", {"classIds": [1]}),
        (silent.id, "class.cancelled", "Class cancelled", "Sorry", {"classIds": [1]}),
    ]
    assert sorted(m["contactId"] for m in LoggingMessagingBackend.sent) == [contact.id, silent.id]
    assert {m["phone"] for m in LoggingMessagingBackend.sent} == {None, "+34 600"}


def test_channels_can_be_limited(organization, contact, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        notify_contacts(organization, [contact.id], kind="k", subject="S", body="B", channels=("email",))
    assert len(mail.outbox) == 1 and not Notification.objects.exists() and LoggingMessagingBackend.sent == []


def test_other_organizations_contacts_are_skipped(organization, other_organization, django_capture_on_commit_callbacks):
    stranger = Contact.objects.create(organization=other_organization, first_name="X", email="x@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        notify_contacts(organization, [stranger.id], kind="k", subject="S", body="B")
    assert mail.outbox == [] and not Notification.objects.exists()


def test_build_calendar_request_and_cancel():
    event = CalendarEvent(
        uid="class-7@example.com",
        start=dt.datetime(2031, 3, 3, 18, 0, tzinfo=dt.timezone(dt.timedelta(hours=1))),
        end=dt.datetime(2031, 3, 3, 19, 0, tzinfo=dt.timezone(dt.timedelta(hours=1))),
        summary="Yoga; level, 2",
        description="Line one\nLine two " + "x" * 100,
        location="Centre Court",
        sequence=3,
    )
    ics = build_calendar([event])
    assert ics.startswith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")
    assert ics.endswith("END:VCALENDAR\r\n")
    lines = ics.split("\r\n")
    assert "METHOD:REQUEST" in lines
    assert "UID:class-7@example.com" in lines
    assert "DTSTART:20310303T170000Z" in lines and "DTEND:20310303T180000Z" in lines
    assert "SUMMARY:Yoga\\; level\\, 2" in lines
    assert "SEQUENCE:3" in lines and "STATUS:CONFIRMED" in lines
    assert all(len(line.encode()) <= 75 for line in lines)
    unfolded = ics.replace("\r\n ", "")
    assert "DESCRIPTION:Line one\\nLine two " + "x" * 100 in unfolded
    cancel = build_calendar([event], method="CANCEL")
    assert "METHOD:CANCEL" in cancel and "STATUS:CANCELLED" in cancel
