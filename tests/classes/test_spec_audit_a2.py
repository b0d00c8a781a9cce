"""Final spec audit (A2): rules of the contract checked through the HTTP API that earlier tests did not pin."""

from django.core import mail

from apps.classes.models import ClassOccurrence


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
