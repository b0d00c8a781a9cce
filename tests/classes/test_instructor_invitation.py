"""POST /classes: assigned instructors get an iCalendar invitation (METHOD:REQUEST) after commit."""

import pytest
from django.core import mail

from apps.classes import services
from apps.classes.choices import ClassStatus
from apps.classes.models import ClassOccurrence
from tests.classes.conftest import make_instructor, make_occurrence


def calendar_of(message):
    (filename, ics, mimetype) = message.attachments[0]
    assert (filename, mimetype) == ("class.ics", "text/calendar")
    return ics


def test_one_off_class_invites_each_instructor(
    create_class, organization, instructor, django_capture_on_commit_callbacks
):
    second = make_instructor(organization, first_name="Max", email="max@example.com")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        body = create_class(instructorIds=[instructor.id, second.id])
    assert mail.outbox == []  # nothing before commit
    for callback in callbacks:
        callback()
    assert sorted(m.to[0] for m in mail.outbox) == ["iris@example.com", "max@example.com"]
    for message in mail.outbox:
        assert message.subject == "Calendar invitation: Evening Yoga"
        ics = calendar_of(message)
        assert "METHOD:REQUEST" in ics and ics.count("BEGIN:VEVENT") == 1
        assert f"UID:class-{body['id']}@" in ics
        assert "DTSTART:20310303T170000Z" in ics and "DTEND:20310303T180000Z" in ics


def test_class_without_instructors_sends_nothing(create_class, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        create_class()
        create_class(
            recurrence={"frequency": "weekly", "daysOfWeek": ["monday"], "ends": {"type": "after", "occurrences": 3}}
        )
    assert mail.outbox == []


def test_series_sends_one_mail_per_instructor_with_every_occurrence(
    create_class, organization, instructor, django_capture_on_commit_callbacks
):
    second = make_instructor(organization, first_name="Max", email="max@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        body = create_class(
            instructorIds=[instructor.id, second.id],
            recurrence={
                "frequency": "weekly",
                "daysOfWeek": ["monday", "wednesday"],
                "ends": {"type": "after", "occurrences": 6},
            },
        )
    assert sorted(m.to[0] for m in mail.outbox) == ["iris@example.com", "max@example.com"]
    ids = list(ClassOccurrence.objects.filter(series_id=body["recurrenceId"]).values_list("id", flat=True))
    assert len(ids) == 6
    for message in mail.outbox:
        ics = calendar_of(message)
        assert "METHOD:REQUEST" in ics and ics.count("BEGIN:VEVENT") == 6
        assert all(f"UID:class-{i}@" in ics for i in ids)


def test_open_ended_series_invitation_is_bounded(create_class, instructor, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        body = create_class(instructorIds=[instructor.id], recurrence={"frequency": "daily", "ends": {"type": "never"}})
    created = body["series"]["occurrencesCreated"]
    assert [m.to for m in mail.outbox] == [["iris@example.com"]]
    assert calendar_of(mail.outbox[0]).count("BEGIN:VEVENT") == min(created, services.CALENDAR_MAX_EVENTS)


@pytest.mark.django_db
def test_cancelled_occurrences_are_never_invited(organization, club, instructor, django_capture_on_commit_callbacks):
    active = make_occurrence(organization, club)
    cancelled = make_occurrence(organization, club, status=ClassStatus.CANCELLED)
    with django_capture_on_commit_callbacks(execute=True):
        services._invite_instructors(organization, [active, cancelled], [instructor.id])
    ics = calendar_of(mail.outbox[0])
    assert ics.count("BEGIN:VEVENT") == 1 and f"UID:class-{active.id}@" in ics
    assert f"UID:class-{cancelled.id}@" not in ics
