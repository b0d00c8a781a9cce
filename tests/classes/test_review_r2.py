"""Round-2 review: wrong JSON types, huge numbers, availability events, open-ended series bounds, lean reads."""

import datetime as dt
from decimal import Decimal

import pytest

from apps.classes.models import ClassOccurrence, ClassSeries
from apps.domain_events.models import DomainEvent

from .conftest import book

pytestmark = pytest.mark.django_db

URL = "/v1/platform/classes"


def body(club, **extra):
    return {
        "clubId": club.id,
        "name": "Evening Yoga",
        "startTime": "2031-03-03T18:00:00+01:00",
        "endTime": "2031-03-03T19:00:00+01:00",
        **extra,
    }


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
    response = api.post(URL, body(club, **{field: value}), format="json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "VALIDATION_ERROR"
    assert response.json()["details"]["fields"] == {field: [message]}
    assert not ClassOccurrence.objects.exists()


def test_update_rejects_huge_capacity_and_string_booleans(api, club):
    created = api.post(URL, body(club), format="json").json()
    for payload, field in (({"maxCapacity": 10**12}, "maxCapacity"), ({"notifyCustomer": "true"}, "notifyCustomer")):
        response = api.patch(f"{URL}/{created['id']}", payload, format="json")
        assert response.status_code == 400, response.content
        assert list(response.json()["details"]["fields"]) == [field]
    assert ClassOccurrence.objects.get().max_capacity is None


def test_instructor_ids_must_be_integers(api, club):
    response = api.post(URL, body(club, instructorIds=["1"]), format="json")
    assert response.status_code == 400
    assert response.json()["details"]["fields"] == {"instructorIds.0": ["Must be an integer."]}


def test_cancel_reason_must_be_a_string(api, club):
    created = api.post(URL, body(club), format="json").json()
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


# --- availability.changed ---------------------------------------------------------------------------------------


def availability_events():
    return [e.data for e in DomainEvent.objects.filter(type="availability.changed").order_by("created_at", "id")]


def test_one_off_class_with_area_emits_availability_changed(
    api, organization, club, area, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        created = api.post(URL, body(club, areaId=area.id), format="json").json()
    assert availability_events() == [
        {
            "organizationId": organization.id,
            "clubId": club.id,
            "areaId": area.id,
            "date": "2031-03-03",
            "startTime": "2031-03-03T17:00:00Z",
            "endTime": "2031-03-03T18:00:00Z",
            "cause": "class",
        }
    ]
    # a class without an area changes no area's availability
    with django_capture_on_commit_callbacks(execute=True):
        api.post(URL, body(club), format="json")
    assert len(availability_events()) == 1
    # moving it: one event for the old and new slot of the area
    with django_capture_on_commit_callbacks(execute=True):
        moved = api.patch(
            f"{URL}/{created['id']}",
            {"startTime": "2031-03-03T20:00:00+01:00", "endTime": "2031-03-03T21:00:00+01:00"},
            format="json",
        )
    assert moved.status_code == 200, moved.content
    moved = availability_events()[-1]
    assert (moved["startTime"], moved["endTime"]) == ("2031-03-03T17:00:00Z", "2031-03-03T20:00:00Z")
    # a rename is not a move
    with django_capture_on_commit_callbacks(execute=True):
        api.patch(f"{URL}/{created['id']}", {"name": "Renamed"}, format="json")
    assert len(availability_events()) == 2
    with django_capture_on_commit_callbacks(execute=True):
        api.post(f"{URL}/{created['id']}/cancel", {}, format="json")
    assert len(availability_events()) == 3
    # deleting a cancelled class frees nothing more
    with django_capture_on_commit_callbacks(execute=True):
        assert api.delete(f"{URL}/{created['id']}").status_code == 204
    assert len(availability_events()) == 3


def test_area_move_emits_for_old_and_new_area(api, club, area, area_type, django_capture_on_commit_callbacks):
    from apps.clubs.models import Area

    other = Area.objects.create(organization=club.organization, club=club, name="Studio 2", area_type=area_type)
    created = api.post(URL, body(club, areaId=area.id), format="json").json()
    DomainEvent.objects.all().delete()  # the events of the create
    with django_capture_on_commit_callbacks(execute=True):
        api.patch(f"{URL}/{created['id']}", {"areaId": other.id}, format="json")
    assert sorted(e["areaId"] for e in availability_events()) == sorted([area.id, other.id])


def test_series_create_and_delete_emit_one_availability_event_per_area(
    api, club, area, django_capture_on_commit_callbacks
):
    recurrence = {"frequency": "daily", "ends": {"type": "after", "occurrences": 30}}
    with django_capture_on_commit_callbacks(execute=True):
        created = api.post(URL, body(club, areaId=area.id, recurrence=recurrence), format="json").json()
    events = availability_events()
    assert len(events) == 1
    assert events[0]["startTime"] == "2031-03-03T17:00:00Z"
    assert events[0]["endTime"] == "2031-04-01T17:00:00Z"  # last occurrence (after the DST change) ends 19:00 local
    with django_capture_on_commit_callbacks(execute=True):
        assert api.delete(f"{URL}/{created['id']}?scope=all_future").status_code == 204
    assert len(availability_events()) == 2


def test_delete_of_active_class_with_area_emits(api, club, area, django_capture_on_commit_callbacks):
    created = api.post(URL, body(club, areaId=area.id), format="json").json()
    DomainEvent.objects.all().delete()  # the events of the create
    with django_capture_on_commit_callbacks(execute=True):
        assert api.delete(f"{URL}/{created['id']}").status_code == 204
    assert [e["areaId"] for e in availability_events()] == [area.id]


# --- open-ended series bounds -----------------------------------------------------------------------------------


def test_open_ended_series_starting_far_in_the_past_is_refused(api, club):
    payload = body(
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
    payload = body(
        club,
        startTime=f"{start}T18:00:00+01:00",
        endTime=f"{start}T19:00:00+01:00",
        recurrence={"frequency": "weekly", "daysOfWeek": ["monday"]},
    )
    response = api.post(URL, payload, format="json")
    assert response.status_code == 201, response.content
    assert 50 <= response.json()["series"]["occurrencesCreated"] <= 57


# --- reads -------------------------------------------------------------------------------------------------------


def test_read_shape_of_a_booked_series_occurrence(api, organization, club, area, contact, instructor, class_type):
    recurrence = {"frequency": "weekly", "daysOfWeek": ["monday"], "ends": {"type": "after", "occurrences": 2}}
    created = api.post(
        URL,
        body(
            club,
            areaId=area.id,
            classTypeId=class_type.id,
            instructorIds=[instructor.id],
            priceBeforeTax=0.5,
            maxCapacity=1,
            recurrence=recurrence,
        ),
        format="json",
    ).json()
    book(ClassOccurrence.objects.get(pk=created["id"]), contact)
    read = api.get(f"{URL}/{created['id']}").json()
    assert "series" not in read
    organization.refresh_from_db()
    assert read["price"] == organization.tax_inclusive(Decimal("0.50"))
    assert read["priceBeforeTax"] == 0.5
    assert read["bookedCount"] == read["currentBookings"] == 1
    assert (read["spotsLeft"], read["availabilityStatus"]) == (0, "full")
    assert read["maxPartySize"] == 3
    assert read["classType"] == {"id": class_type.id, "name": "Yoga", "slug": "yoga", "maxPartySize": 3}
    assert read["area"] == {"id": area.id, "name": area.name}
    assert read["club"] == {"id": club.id, "name": club.name, "slug": club.slug}
    assert read["recurrence"] == {
        "id": created["recurrenceId"],
        "frequency": "weekly",
        "interval": 1,
        "daysOfWeek": ["monday"],
        "endsType": "after",
        "endsDate": None,
        "endsTotalOccurrences": 2,
        "status": "active",
    }
    assert [i["id"] for i in read["instructors"]] == [instructor.id]
    assert "weeklyAvailability" not in read["instructors"][0]
    assert read["instructors"][0]["contact"] == {"name": "Iris Coach", "profileImage": None}
    listed = api.get(f"{URL}?recurrenceId={created['recurrenceId']}").json()
    assert listed["data"][0] == read


def test_list_filters_by_instructor(api, club, instructor):
    api.post(URL, body(club, instructorIds=[instructor.id]), format="json")
    api.post(URL, body(club, name="Other"), format="json")
    listed = api.get(f"{URL}?instructorId={instructor.id}").json()
    assert [c["name"] for c in listed["data"]] == ["Evening Yoga"]
    assert listed["total"] == 1


@pytest.mark.parametrize(
    "start, end",
    [
        ("9999-12-31T22:00:00Z", "9999-12-31T23:00:00Z"),
        ("0001-01-01T00:00:00Z", "0001-01-01T01:00:00Z"),
        ("2200-01-01T00:00:00Z", "2200-01-01T01:00:00Z"),
    ],
)
def test_times_outside_the_calendar_are_a_400(api, club, start, end):
    response = api.post(URL, body(club, startTime=start, endTime=end), format="json")
    assert response.status_code == 400, response.content
    assert response.json()["details"]["fields"] == {
        "startTime": ["Must be between 1900-01-01 and 2199-12-31."],
        "endTime": ["Must be between 1900-01-01 and 2199-12-31."],
    }


def test_series_end_date_outside_the_calendar_is_a_400(api, club):
    recurrence = {"frequency": "daily", "ends": {"type": "until"}, "endDate": "9999-12-31T23:00:00Z"}
    response = api.post(URL, body(club, recurrence=recurrence), format="json")
    assert response.status_code == 400
    assert response.json()["details"]["fields"] == {
        "recurrence.endDate": ["Must be between 1900-01-01 and 2199-12-31."]
    }


def test_series_stops_at_the_end_of_the_calendar(api, club):
    recurrence = {"frequency": "monthly", "interval": 365, "ends": {"type": "after", "occurrences": 520}}
    response = api.post(URL, body(club, recurrence=recurrence), format="json")
    assert response.status_code == 201, response.content
    # steps of 365 months (30 years 5 months): 2031-03, 2061-08, ..., 2183-04; the next (2213-09) is past 2199
    assert response.json()["series"]["occurrencesCreated"] == 6
    listed = api.get(f"{URL}?recurrenceId={response.json()['recurrenceId']}&ordering=-startTime&limit=1").json()
    assert listed["data"][0]["startTime"].startswith("2183-04-03")
