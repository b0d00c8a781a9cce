"""PATCH /classes/{id}: this / all_future updates, notifications, and moving where a series ends."""

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.core import mail

from apps.classes.models import ClassOccurrence, ClassSeries
from apps.clubs.models import Area, Club
from apps.domain_events.models import DomainEvent
from apps.notifications.channels import LoggingMessagingBackend
from apps.notifications.models import Notification
from tests.classes.conftest import book, make_instructor, make_occurrence, wait

MADRID = ZoneInfo("Europe/Madrid")


@pytest.fixture(autouse=True)
def _clear_messaging():
    LoggingMessagingBackend.sent.clear()
    yield
    LoggingMessagingBackend.sent.clear()


@pytest.fixture
def weekly(create_class, instructor):
    """Mondays 18:00 Madrid, 6 occurrences from 2031-03-03, with one instructor."""
    body = create_class(
        instructorIds=[instructor.id],
        recurrence={"frequency": "weekly", "daysOfWeek": ["monday"], "ends": {"type": "after", "occurrences": 6}},
    )
    return list(ClassOccurrence.objects.filter(series_id=body["recurrenceId"]).order_by("occurrence_index"))


def patch(api, occurrence, body, query=""):
    return api.patch(f"/v1/platform/classes/{occurrence.id}{query}", body, format="json")


def test_rename_one_off_notifies_nobody(
    api, organization, club, contact, instructor, django_capture_on_commit_callbacks
):
    occurrence = make_occurrence(organization, club, max_capacity=5)
    occurrence.instructors.add(instructor)
    book(occurrence, contact)
    with django_capture_on_commit_callbacks(execute=True):
        response = patch(api, occurrence, {"name": "Sunset Yoga", "priceBeforeTax": 20, "notifyCustomer": True})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["name"] == "Sunset Yoga" and body["price"] == 24.2 and "series" not in body
    assert mail.outbox == [] and not Notification.objects.exists() and LoggingMessagingBackend.sent == []
    event = DomainEvent.objects.get(type="class.updated")
    assert sorted(event.changed_fields) == ["name", "priceBeforeTax"]


def test_time_change_with_notify_tells_booked_people_and_instructors(
    api, organization, club, contact, instructor, django_capture_on_commit_callbacks
):
    occurrence = make_occurrence(organization, club)
    occurrence.instructors.add(instructor)
    book(occurrence, contact)
    with django_capture_on_commit_callbacks(execute=True):
        response = patch(
            api,
            occurrence,
            {"startTime": "2031-03-03T19:00:00+01:00", "endTime": "2031-03-03T20:00:00+01:00", "notifyCustomer": True},
        )
    assert response.status_code == 200, response.content
    assert response.json()["startTime"] == "2031-03-03T18:00:00Z"
    customer_mail = [m for m in mail.outbox if m.to == ["ana@example.com"]]
    assert len(customer_mail) == 1 and "Schedule change" in customer_mail[0].subject
    assert "19:00" in customer_mail[0].body
    notification = Notification.objects.get(contact=contact)
    assert notification.kind == "class.schedule_changed"
    assert notification.data["classIds"] == [occurrence.id]
    assert [m["contactId"] for m in LoggingMessagingBackend.sent] == [contact.id]
    instructor_mail = [m for m in mail.outbox if m.to == ["iris@example.com"]]
    assert len(instructor_mail) == 1
    (filename, ics, mimetype) = instructor_mail[0].attachments[0]
    assert (filename, mimetype) == ("class.ics", "text/calendar")
    assert "METHOD:REQUEST" in ics
    assert f"UID:class-{occurrence.id}@" in ics
    assert "DTSTART:20310303T180000Z" in ics and "DTEND:20310303T190000Z" in ics
    assert "SUMMARY:Yoga" in ics


def test_time_change_without_notify_still_updates_instructor_calendars(
    api, organization, club, contact, instructor, django_capture_on_commit_callbacks
):
    occurrence = make_occurrence(organization, club)
    occurrence.instructors.add(instructor)
    book(occurrence, contact)
    with django_capture_on_commit_callbacks(execute=True):
        assert patch(api, occurrence, {"startTime": "2031-03-03T17:30:00Z"}).status_code == 200
    assert [m.to for m in mail.outbox] == [["iris@example.com"]]
    assert not Notification.objects.exists()


def test_instructor_change_sends_request_and_cancel(
    api, organization, club, instructor, django_capture_on_commit_callbacks
):
    occurrence = make_occurrence(organization, club)
    occurrence.instructors.add(instructor)
    newcomer = make_instructor(organization, "Nia", "nia@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        response = patch(api, occurrence, {"instructorIds": [newcomer.id]})
    assert [i["id"] for i in response.json()["instructors"]] == [newcomer.id]
    by_recipient = {m.to[0]: m.attachments[0][1] for m in mail.outbox}
    assert "METHOD:REQUEST" in by_recipient["nia@example.com"]
    assert "METHOD:CANCEL" in by_recipient["iris@example.com"]


def test_all_future_time_change_sends_no_calendar_request_for_a_cancelled_occurrence(
    api, create_class, instructor, django_capture_on_commit_callbacks
):
    body = create_class(
        instructorIds=[instructor.id],
        recurrence={"frequency": "weekly", "daysOfWeek": ["monday"], "ends": {"type": "after", "occurrences": 4}},
    )
    rows = list(ClassOccurrence.objects.filter(series_id=body["recurrenceId"]).order_by("occurrence_index"))
    with django_capture_on_commit_callbacks(execute=True):
        assert api.post(f"/v1/platform/classes/{rows[2].id}/cancel", {}, format="json").status_code == 200
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        response = api.patch(
            f"/v1/platform/classes/{rows[0].id}?scope=all_future",
            {"startTime": "2031-03-03T18:30:00+01:00"},
            format="json",
        )
    assert response.status_code == 200, response.content
    # Every occurrence moved (the cancelled one too, it stays cancelled)...
    assert ClassOccurrence.objects.get(pk=rows[2].id).status == "cancelled"
    assert api.get(f"/v1/platform/classes/{rows[2].id}").json()["startTime"] == "2031-03-17T17:30:00Z"
    # ...but the instructor's calendar update covers only the active ones.
    (message,) = [m for m in mail.outbox if m.to == ["iris@example.com"]]
    ics = message.attachments[0][1]
    assert "METHOD:REQUEST" in ics
    assert [f"UID:class-{o.id}@" in ics for o in rows] == [True, True, False, True]


def test_all_future_time_change_of_only_cancelled_occurrences_sends_no_calendar(
    api, create_class, instructor, django_capture_on_commit_callbacks
):
    occurrence = create_class(instructorIds=[instructor.id])
    with django_capture_on_commit_callbacks(execute=True):
        api.post(f"/v1/platform/classes/{occurrence['id']}/cancel", {}, format="json")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        response = api.patch(
            f"/v1/platform/classes/{occurrence['id']}", {"startTime": "2031-03-03T18:30:00+01:00"}, format="json"
        )
    assert response.status_code == 200
    assert response.json()["status"] == "cancelled"
    assert mail.outbox == []


def test_all_future_shifts_by_delta_and_sets_fields(api, weekly, area, django_capture_on_commit_callbacks):
    third = weekly[2]
    with django_capture_on_commit_callbacks(execute=True):
        response = patch(
            api,
            third,
            {
                "startTime": "2031-03-17T18:30:00+01:00",
                "endTime": "2031-03-17T19:45:00+01:00",
                "name": "Late",
                "areaId": area.id,
            },
            "?scope=all_future",
        )
    assert response.status_code == 200, response.content
    rows = list(ClassOccurrence.objects.order_by("occurrence_index"))
    assert [(o.name, o.area_id) for o in rows[:2]] == [("Evening Yoga", None)] * 2
    assert all((o.name, o.area_id) == ("Late", area.id) for o in rows[2:])
    local = [o.start_time.astimezone(MADRID) for o in rows]
    assert [(t.hour, t.minute) for t in local[:2]] == [(18, 0)] * 2
    # The shift is the same delta for every later occurrence, across the DST change of 30 March.
    assert [(t.hour, t.minute) for t in local[2:]] == [(18, 30)] * 4
    assert all(o.end_time - o.start_time == dt.timedelta(minutes=75) for o in rows[2:])
    series = ClassSeries.objects.get()
    assert series.template["name"] == "Late" and series.template["area_id"] == area.id
    assert series.start_shift_seconds == 1800 and series.duration_minutes == 75
    assert DomainEvent.objects.filter(type="class.updated").count() == 4


def test_this_scope_on_a_series_changes_one(api, weekly):
    assert patch(api, weekly[1], {"name": "Special"}).status_code == 200
    assert list(ClassOccurrence.objects.filter(name="Special").values_list("id", flat=True)) == [weekly[1].id]


def test_update_validation(api, organization, club, weekly):
    occurrence = weekly[0]
    response = patch(api, occurrence, {"endTime": "2031-03-03T16:00:00Z"})
    assert response.status_code == 400 and "endTime" in response.json()["details"]["fields"]
    response = patch(api, occurrence, {"startTime": "2031-03-03T18:00:00"})
    assert response.status_code == 400 and "startTime" in response.json()["details"]["fields"]
    assert patch(api, occurrence, {"name": "x"}, "?scope=everything").json()["details"]["fields"] == {
        "scope": ["Must be `this` or `all_future`."]
    }
    other_club = Club.objects.create(organization=organization, name="Other", slug="other")
    area = Area.objects.create(organization=organization, club=club, name="Room")
    assert patch(api, occurrence, {"areaId": area.id}).status_code == 200
    response = patch(api, occurrence, {"clubId": other_club.id})
    assert response.status_code == 400 and "areaId" in response.json()["details"]["fields"]
    response = patch(api, occurrence, {"clubId": other_club.id, "areaId": None})
    assert response.status_code == 200 and response.json()["clubId"] == other_club.id


# --- series end move --------------------------------------------------------------------------------------------


def test_recurrence_requires_all_future(api, weekly):
    response = patch(api, weekly[0], {"recurrence": {"ends": {"type": "after", "occurrences": 3}}})
    assert response.status_code == 400 and response.json()["code"] == "RECURRENCE_REQUIRES_ALL_FUTURE"


def test_recurrence_with_class_fields_is_rejected(api, weekly):
    response = patch(
        api,
        weekly[0],
        {"recurrence": {"ends": {"type": "after", "occurrences": 3}}, "name": "x", "maxCapacity": 3},
        "?scope=all_future",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "RECURRENCE_UPDATE_NOT_ALONE"
    assert response.json()["details"] == {"fields": ["maxCapacity", "name"]}
    assert ClassOccurrence.objects.count() == 6 and ClassOccurrence.objects.filter(name="x").count() == 0


@pytest.mark.parametrize("key", ["frequency", "interval", "daysOfWeek"])
def test_recurrence_cadence_is_immutable(api, weekly, key):
    value = {"frequency": "daily", "interval": 2, "daysOfWeek": ["tuesday"]}[key]
    response = patch(api, weekly[0], {"recurrence": {key: value, "ends": {"type": "never"}}}, "?scope=all_future")
    assert response.status_code == 400
    assert response.json()["code"] == "RECURRENCE_CADENCE_IMMUTABLE"
    assert response.json()["details"] == {"field": f"recurrence.{key}"}


def test_recurrence_update_unknown_field_and_missing_ends(api, weekly):
    response = patch(api, weekly[0], {"recurrence": {"ends": {"type": "never"}, "foo": 1}}, "?scope=all_future")
    assert response.json()["code"] == "UNKNOWN_FIELD" and response.json()["details"] == {"field": "recurrence.foo"}
    response = patch(api, weekly[0], {"recurrence": {"endDate": "2031-03-20T00:00:00Z"}}, "?scope=all_future")
    assert response.json()["code"] == "VALIDATION_ERROR" and "recurrence.ends" in response.json()["details"]["fields"]


def test_recurrence_on_one_off_is_a_validation_error(api, organization, club):
    occurrence = make_occurrence(organization, club)
    response = patch(api, occurrence, {"recurrence": {"ends": {"type": "never"}}}, "?scope=all_future")
    assert response.status_code == 400 and response.json()["code"] == "VALIDATION_ERROR"


def test_shortening_past_a_booked_occurrence_is_refused_and_removes_nothing(api, weekly, contact, organization):
    book(weekly[4], contact)
    wait(weekly[5], contact)
    response = patch(api, weekly[0], {"recurrence": {"ends": {"type": "after", "occurrences": 3}}}, "?scope=all_future")
    assert response.status_code == 409
    assert response.json()["code"] == "SERIES_HAS_ACTIVE_BOOKINGS"
    assert response.json()["details"] == {"classIds": [weekly[4].id, weekly[5].id]}
    assert ClassOccurrence.objects.count() == 6
    assert ClassSeries.objects.get().ends_total_occurrences == 6


def test_shortening_removes_and_lengthening_creates(api, weekly, contact, django_capture_on_commit_callbacks):
    cancelled = book(weekly[5], contact, status="cancelled")
    with django_capture_on_commit_callbacks(execute=True):
        response = patch(
            api,
            weekly[0],
            {"recurrence": {"endDate": "2031-03-24T18:00:00+01:00", "ends": {"type": "until"}}, "notifyCustomer": True},
            "?scope=all_future",
        )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["id"] == weekly[0].id
    assert body["series"] == {"recurrenceId": weekly[0].series_id, "occurrencesCreated": 0, "occurrencesRemoved": 2}
    assert body["recurrence"]["endsType"] == "until"
    assert ClassOccurrence.objects.count() == 4
    cancelled.refresh_from_db()
    assert cancelled.class_occurrence_id is None  # a cancelled booking is kept, detached
    assert DomainEvent.objects.filter(type="class.deleted").count() == 2
    # Lengthen to 8 occurrences: indices 5..8 are created again.
    with django_capture_on_commit_callbacks(execute=True):
        response = patch(
            api, weekly[1], {"recurrence": {"ends": {"type": "after", "occurrences": 8}}}, "?scope=all_future"
        )
    assert response.json()["series"] == {
        "recurrenceId": weekly[0].series_id,
        "occurrencesCreated": 4,
        "occurrencesRemoved": 0,
    }
    assert list(
        ClassOccurrence.objects.order_by("occurrence_index").values_list("occurrence_index", flat=True)
    ) == list(range(1, 9))
    assert all(o.instructors.count() == 1 for o in ClassOccurrence.objects.all())
    changed = DomainEvent.objects.filter(type="class.series_changed").order_by("created_at").last()
    assert changed.data["occurrencesCreated"] == 4


def test_moving_end_to_never_materializes_a_window(api, weekly):
    response = patch(api, weekly[0], {"recurrence": {"ends": {"type": "never"}}}, "?scope=all_future")
    assert response.status_code == 200
    # The series starts in 2031: its window runs 90 days from its start.
    assert response.json()["series"]["occurrencesCreated"] == 7
    assert ClassOccurrence.objects.count() == 13  # Mondays from 3 March to 26 May 2031
    assert ClassSeries.objects.get().ends_type == "never"
