"""Recurring creates through the HTTP API: counts, ends, caps, closed days, DST, validation."""

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from apps.classes.models import ClassOccurrence, ClassSeries
from apps.domain_events.models import DomainEvent

MADRID = ZoneInfo("Europe/Madrid")


def local_times(series_id):
    return [
        o.start_time.astimezone(MADRID)
        for o in ClassOccurrence.objects.filter(series_id=series_id).order_by("start_time")
    ]


def test_monday_and_wednesday_for_twelve_weeks_gives_24(create_class, instructor):
    # 2031-03-03 is a Monday.
    body = create_class(
        instructorIds=[instructor.id],
        recurrence={
            "frequency": "weekly",
            "daysOfWeek": ["monday", "wednesday"],
            "ends": {"type": "after", "occurrences": 24},
        },
    )
    series = ClassSeries.objects.get()
    assert body["series"] == {"recurrenceId": series.id, "occurrencesCreated": 24}
    assert body["recurrenceId"] == series.id and body["occurrenceIndex"] == 1
    assert body["recurrence"] == {
        "id": series.id,
        "frequency": "weekly",
        "interval": 1,
        "daysOfWeek": ["monday", "wednesday"],
        "endsType": "after",
        "endsDate": None,
        "endsTotalOccurrences": 24,
        "status": "active",
    }
    times = local_times(series.id)
    assert len(times) == 24
    assert {t.strftime("%A") for t in times} == {"Monday", "Wednesday"}
    assert times[-1].date() == dt.date(2031, 5, 21)  # Wednesday of the twelfth week
    assert all(o.instructors.count() == 1 for o in ClassOccurrence.objects.all())
    assert list(
        ClassOccurrence.objects.order_by("occurrence_index").values_list("occurrence_index", flat=True)
    ) == list(range(1, 25))


def test_first_occurrence_is_first_listed_day_at_or_after_start(create_class):
    # Start on Monday 3 March; only Thursdays are listed → first on Thursday 6 March at 18:00 local.
    body = create_class(
        recurrence={"frequency": "weekly", "daysOfWeek": ["thursday"], "ends": {"type": "after", "occurrences": 2}}
    )
    assert body["startTime"] == "2031-03-06T17:00:00Z"
    assert body["endTime"] == "2031-03-06T18:00:00Z"


def test_series_appears_only_on_create(create_class, api):
    body = create_class(recurrence={"frequency": "daily", "ends": {"type": "after", "occurrences": 3}})
    read = api.get(f"/v1/platform/classes/{body['id']}").json()
    assert "series" not in read
    assert all("series" not in row for row in api.get("/v1/platform/classes").json()["data"])


def test_until_on_an_occurrence_exact_start_keeps_it(create_class):
    body = create_class(
        recurrence={"frequency": "daily", "endDate": "2031-03-07T18:00:00+01:00", "ends": {"type": "until"}}
    )
    assert body["series"]["occurrencesCreated"] == 5  # 3..7 March, the 7th starts exactly at endDate
    assert local_times(body["recurrenceId"])[-1] == dt.datetime(2031, 3, 7, 18, 0, tzinfo=MADRID)


def test_daily_after_520_gives_520(create_class):
    body = create_class(recurrence={"frequency": "daily", "ends": {"type": "after", "occurrences": 520}})
    assert body["series"]["occurrencesCreated"] == 520
    assert ClassOccurrence.objects.count() == 520


def test_daily_until_three_years_is_capped_at_520(create_class):
    body = create_class(
        recurrence={"frequency": "daily", "endDate": "2034-03-03T18:00:00+01:00", "ends": {"type": "until"}}
    )
    assert body["series"]["occurrencesCreated"] == 520
    assert ClassOccurrence.objects.filter(series_id=body["recurrenceId"]).count() == 520


def test_closed_dates_and_closing_date_are_skipped(create_class, club):
    club.closed_dates = ["2031-03-04", "2031-03-06"]
    club.closing_date = dt.date(2031, 3, 10)
    club.save()
    body = create_class(recurrence={"frequency": "daily", "ends": {"type": "after", "occurrences": 10}})
    # 3..12 March requested; the 4th and 6th are closed, the 11th and 12th are after the closing date.
    assert body["series"]["occurrencesCreated"] == 6
    days = [t.day for t in local_times(body["recurrenceId"])]
    assert days == [3, 5, 7, 8, 9, 10]
    indices = list(ClassOccurrence.objects.order_by("start_time").values_list("occurrence_index", flat=True))
    assert indices == [1, 3, 5, 6, 7, 8]  # skipped occurrences keep their index


def test_dst_weekly_series_keeps_local_time(create_class):
    # Weekly on Thursdays 18:00 Madrid from March to November 2031 (DST: 30 March and 26 October).
    body = create_class(
        startTime="2031-03-20T18:00:00+01:00",
        endTime="2031-03-20T19:00:00+01:00",
        recurrence={
            "frequency": "weekly",
            "daysOfWeek": ["thursday"],
            "endDate": "2031-11-06T23:00:00+01:00",
            "ends": {"type": "until"},
        },
    )
    times = local_times(body["recurrenceId"])
    assert times[0].date() == dt.date(2031, 3, 20) and times[-1].date() == dt.date(2031, 11, 6)
    assert {(t.hour, t.minute) for t in times} == {(18, 0)}
    utc_hours = {o.start_time.astimezone(dt.UTC).hour for o in ClassOccurrence.objects.all()}
    assert utc_hours == {16, 17}  # summer and winter offsets
    assert all((o.end_time - o.start_time) == dt.timedelta(hours=1) for o in ClassOccurrence.objects.all())


def test_open_ended_series_materializes_a_90_day_window(create_class, settings):
    start = (
        (timezone.now() + dt.timedelta(days=1)).astimezone(MADRID).replace(hour=9, minute=0, second=0, microsecond=0)
    )
    body = create_class(
        startTime=start.isoformat(),
        endTime=(start + dt.timedelta(hours=1)).isoformat(),
        recurrence={"frequency": "daily"},
    )
    series = ClassSeries.objects.get()
    assert series.ends_type == "never"
    assert body["recurrence"]["endsType"] == "never"
    assert series.materialized_until >= timezone.now() + dt.timedelta(days=settings.SERIES_WINDOW_DAYS - 1)
    count = ClassOccurrence.objects.count()
    assert count in (90, 91) and body["series"]["occurrencesCreated"] == count
    assert max(o.start_time for o in ClassOccurrence.objects.all()) <= series.materialized_until


def test_monthly_and_interval(create_class):
    body = create_class(recurrence={"frequency": "monthly", "interval": 2, "ends": {"type": "after", "occurrences": 3}})
    assert [t.date() for t in local_times(body["recurrenceId"])] == [
        dt.date(2031, 3, 3),
        dt.date(2031, 5, 3),
        dt.date(2031, 7, 3),
    ]


@pytest.mark.parametrize(
    ("recurrence", "field"),
    [
        ({"frequency": "daily", "daysOfWeek": ["monday"]}, "recurrence.daysOfWeek"),
        ({"frequency": "weekly"}, "recurrence.daysOfWeek"),
        ({"frequency": "weekly", "daysOfWeek": []}, "recurrence.daysOfWeek"),
        ({"frequency": "weekly", "daysOfWeek": ["monday", "monday"]}, "recurrence.daysOfWeek"),
        ({"frequency": "weekly", "daysOfWeek": ["funday"]}, "recurrence.daysOfWeek"),
        ({"frequency": "hourly"}, "recurrence.frequency"),
        ({}, "recurrence.frequency"),
        ({"frequency": "daily", "interval": 0}, "recurrence.interval"),
        ({"frequency": "daily", "interval": 366}, "recurrence.interval"),
        ({"frequency": "daily", "ends": {"type": "until"}}, "recurrence.endDate"),
        ({"frequency": "daily", "endDate": "2031-04-01T00:00:00Z"}, "recurrence.endDate"),
        ({"frequency": "daily", "endDate": "2031-04-01T00:00:00", "ends": {"type": "until"}}, "recurrence.endDate"),
        ({"frequency": "daily", "endDate": "2031-01-01T00:00:00Z", "ends": {"type": "until"}}, "recurrence.endDate"),
        ({"frequency": "daily", "ends": {"type": "after"}}, "recurrence.ends.occurrences"),
        ({"frequency": "daily", "ends": {"type": "after", "occurrences": 521}}, "recurrence.ends.occurrences"),
        ({"frequency": "daily", "ends": {"type": "never", "occurrences": 3}}, "recurrence.ends.occurrences"),
        ({"frequency": "daily", "ends": {"type": "sometimes"}}, "recurrence.ends.type"),
        ({"frequency": "daily", "ends": {}}, "recurrence.ends.type"),
    ],
)
def test_recurrence_validation(create_class, recurrence, field):
    error = create_class(expect=400, recurrence=recurrence)
    assert error["code"] == "VALIDATION_ERROR"
    assert field in error["details"]["fields"], error
    assert not ClassSeries.objects.exists() and not ClassOccurrence.objects.exists()


@pytest.mark.parametrize(
    ("recurrence", "field"),
    [
        ({"frequency": "daily", "foo": 1}, "recurrence.foo"),
        ({"frequency": "daily", "ends": {"type": "never", "bar": 1}}, "recurrence.ends.bar"),
    ],
)
def test_unknown_recurrence_field(create_class, recurrence, field):
    error = create_class(expect=400, recurrence=recurrence)
    assert error["code"] == "UNKNOWN_FIELD" and error["details"] == {"field": field}


def test_unknown_top_level_fields_are_ignored(create_class):
    assert create_class(whatever=1, id=5)["name"] == "Evening Yoga"


def test_everything_closed_is_a_validation_error(create_class, club):
    club.closing_date = dt.date(2031, 1, 1)
    club.save()
    error = create_class(expect=400, recurrence={"frequency": "daily", "ends": {"type": "after", "occurrences": 3}})
    assert error["code"] == "VALIDATION_ERROR" and "recurrence" in error["details"]["fields"]
    assert not ClassSeries.objects.exists()


def test_series_create_emits_events(create_class, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        body = create_class(recurrence={"frequency": "daily", "ends": {"type": "after", "occurrences": 4}})
    assert DomainEvent.objects.filter(type="class.created").count() == 4
    changed = DomainEvent.objects.get(type="class.series_changed")
    assert changed.data == {
        "recurrenceId": body["recurrenceId"],
        "occurrencesCreated": 4,
        "occurrencesRemoved": 0,
        "status": "active",
    }
