"""`availability.changed` (cause `class`) when classes take, move or free an area's time."""

import pytest

from apps.domain_events.models import DomainEvent

from .conftest import class_body

pytestmark = pytest.mark.django_db

URL = "/v1/platform/classes"


def availability_events():
    return [e.data for e in DomainEvent.objects.filter(type="availability.changed").order_by("created_at", "id")]


def test_one_off_class_with_area_emits_availability_changed(
    api, organization, club, area, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        created = api.post(URL, class_body(club, areaId=area.id), format="json").json()
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
        api.post(URL, class_body(club), format="json")
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
    created = api.post(URL, class_body(club, areaId=area.id), format="json").json()
    DomainEvent.objects.all().delete()  # the events of the create
    with django_capture_on_commit_callbacks(execute=True):
        api.patch(f"{URL}/{created['id']}", {"areaId": other.id}, format="json")
    assert sorted(e["areaId"] for e in availability_events()) == sorted([area.id, other.id])


def test_series_create_and_delete_emit_one_availability_event_per_area(
    api, club, area, django_capture_on_commit_callbacks
):
    recurrence = {"frequency": "daily", "ends": {"type": "after", "occurrences": 30}}
    with django_capture_on_commit_callbacks(execute=True):
        created = api.post(URL, class_body(club, areaId=area.id, recurrence=recurrence), format="json").json()
    events = availability_events()
    assert len(events) == 1
    assert events[0]["startTime"] == "2031-03-03T17:00:00Z"
    assert events[0]["endTime"] == "2031-04-01T17:00:00Z"  # last occurrence (after the DST change) ends 19:00 local
    with django_capture_on_commit_callbacks(execute=True):
        assert api.delete(f"{URL}/{created['id']}?scope=all_future").status_code == 204
    assert len(availability_events()) == 2


def test_delete_of_active_class_with_area_emits(api, club, area, django_capture_on_commit_callbacks):
    created = api.post(URL, class_body(club, areaId=area.id), format="json").json()
    DomainEvent.objects.all().delete()  # the events of the create
    with django_capture_on_commit_callbacks(execute=True):
        assert api.delete(f"{URL}/{created['id']}").status_code == 204
    assert [e["areaId"] for e in availability_events()] == [area.id]
