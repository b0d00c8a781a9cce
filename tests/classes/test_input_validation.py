"""Classes input: wrong JSON types, out-of-range numbers and times outside the calendar are a 400 naming the field;
open-ended series bounds."""

import datetime as dt

import pytest

from apps.classes.models import ClassOccurrence, ClassSeries

from .conftest import class_body

pytestmark = pytest.mark.django_db

URL = "/v1/platform/classes"


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("maxCapacity", 10**12, "Ensure this value is less than or equal to 2147483647."),
        ("maxCapacity", "5", "Must be an integer."),
        ("maxCapacity", 5.5, "Must be an integer."),
        ("isFree", "yes", "Must be `true` or `false`."),
        ("isFree", 1, "Must be `true` or `false`."),
        ("allowWaitlist", "false", "Must be `true` or `false`."),
        ("priceBeforeTax", "10", "Must be a number."),
        ("priceBeforeTax", True, "Must be a number."),
        ("name", 5, "Must be a string."),
        ("description", ["x"], "Must be a string."),
        ("sport", {"a": 1}, "Must be a string."),
        ("color", 123456, "Must be a string."),
    ],
)
def test_create_rejects_wrong_json_types_and_out_of_range_numbers(api, club, field, value, message):
    response = api.post(URL, class_body(club, **{field: value}), format="json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "VALIDATION_ERROR"
    assert response.json()["details"]["fields"] == {field: [message]}
    assert not ClassOccurrence.objects.exists()


def test_update_rejects_huge_capacity_and_string_booleans(api, club):
    created = api.post(URL, class_body(club), format="json").json()
    for payload, field in (({"maxCapacity": 10**12}, "maxCapacity"), ({"notifyCustomer": "true"}, "notifyCustomer")):
        response = api.patch(f"{URL}/{created['id']}", payload, format="json")
        assert response.status_code == 400, response.content
        assert list(response.json()["details"]["fields"]) == [field]
    assert ClassOccurrence.objects.get().max_capacity is None


def test_instructor_ids_must_be_integers(api, club):
    response = api.post(URL, class_body(club, instructorIds=["1"]), format="json")
    assert response.status_code == 400
    assert response.json()["details"]["fields"] == {"instructorIds.0": ["Must be an integer."]}


def test_cancel_reason_must_be_a_string(api, club):
    created = api.post(URL, class_body(club), format="json").json()
    response = api.post(f"{URL}/{created['id']}/cancel", {"reason": 5}, format="json")
    assert response.status_code == 400
    assert response.json()["details"]["fields"] == {"reason": ["Must be a string."]}
    assert ClassOccurrence.objects.get().status == "active"


def test_class_type_rejects_wrong_types(api):
    for payload, field in (
        ({"name": "T", "maxPartySize": "3"}, "maxPartySize"),
        ({"name": "T", "isActive": "yes"}, "isActive"),
        ({"name": 7}, "name"),
    ):
        response = api.post("/v1/platform/class-types", payload, format="json")
        assert response.status_code == 400, response.content
        assert list(response.json()["details"]["fields"]) == [field]


def test_instructor_rejects_wrong_types(api):
    for payload, field in (
        ({"contact": {"firstName": "A"}, "hourlyRate": "12"}, "hourlyRate"),
        ({"contact": {"firstName": "A"}, "isActive": "yes"}, "isActive"),
        ({"contact": {"firstName": 5}}, "contact.firstName"),
    ):
        response = api.post("/v1/platform/instructors", payload, format="json")
        assert response.status_code == 400, response.content
        assert list(response.json()["details"]["fields"]) == [field]


# --- open-ended series bounds -----------------------------------------------------------------------------------


def test_open_ended_series_starting_far_in_the_past_is_refused(api, club):
    payload = class_body(
        club,
        startTime="2020-01-06T18:00:00+01:00",
        endTime="2020-01-06T19:00:00+01:00",
        recurrence={"frequency": "daily"},
    )
    response = api.post(URL, payload, format="json")
    assert response.status_code == 400, response.content
    assert list(response.json()["details"]["fields"]) == ["startTime"]
    assert not ClassSeries.objects.exists()
    assert not ClassOccurrence.objects.exists()


def test_open_ended_weekly_series_from_last_year_is_fine(api, club):
    start = (dt.date.today() - dt.timedelta(days=300)).isoformat()
    payload = class_body(
        club,
        startTime=f"{start}T18:00:00+01:00",
        endTime=f"{start}T19:00:00+01:00",
        recurrence={"frequency": "weekly", "daysOfWeek": ["monday"]},
    )
    response = api.post(URL, payload, format="json")
    assert response.status_code == 201, response.content
    assert 50 <= response.json()["series"]["occurrencesCreated"] <= 57


# --- the calendar's bounds --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "start, end",
    [
        ("9999-12-31T22:00:00Z", "9999-12-31T23:00:00Z"),
        ("0001-01-01T00:00:00Z", "0001-01-01T01:00:00Z"),
        ("2200-01-01T00:00:00Z", "2200-01-01T01:00:00Z"),
    ],
)
def test_times_outside_the_calendar_are_a_400(api, club, start, end):
    response = api.post(URL, class_body(club, startTime=start, endTime=end), format="json")
    assert response.status_code == 400, response.content
    assert response.json()["details"]["fields"] == {
        "startTime": ["Must be between 1900-01-01 and 2199-12-31."],
        "endTime": ["Must be between 1900-01-01 and 2199-12-31."],
    }


def test_series_end_date_outside_the_calendar_is_a_400(api, club):
    recurrence = {"frequency": "daily", "ends": {"type": "until"}, "endDate": "9999-12-31T23:00:00Z"}
    response = api.post(URL, class_body(club, recurrence=recurrence), format="json")
    assert response.status_code == 400
    assert response.json()["details"]["fields"] == {
        "recurrence.endDate": ["Must be between 1900-01-01 and 2199-12-31."]
    }


def test_series_stops_at_the_end_of_the_calendar(api, club):
    recurrence = {"frequency": "monthly", "interval": 365, "ends": {"type": "after", "occurrences": 520}}
    response = api.post(URL, class_body(club, recurrence=recurrence), format="json")
    assert response.status_code == 201, response.content
    # steps of 365 months (30 years 5 months): 2031-03, 2061-08, ..., 2183-04; the next (2213-09) is past 2199
    assert response.json()["series"]["occurrencesCreated"] == 6
    listed = api.get(f"{URL}?recurrenceId={response.json()['recurrenceId']}&ordering=-startTime&limit=1").json()
    assert listed["data"][0]["startTime"].startswith("2183-04-03")
