"""Clubs edge cases: bad input is a 4xx in the envelope (never a 500), whole-minute free time, concurrent writers,
unblocking twice, days with a clock change."""

import datetime as dt
from unittest import mock

import pytest

from apps.api.exceptions import NotFound
from apps.clubs import services
from apps.clubs.models import AreaType
from apps.kernel import slugs
from apps.occupancy import availability
from apps.occupancy import services as blocks
from apps.occupancy.models import AreaBlock
from tests.factories import make_area

pytestmark = pytest.mark.django_db


def assert_400(response, field):
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "VALIDATION_ERROR"
    assert list(body["details"]["fields"]) == [field]


@pytest.mark.parametrize(
    "path,field",
    [
        ("/v1/platform/clubs?q=%00", "q"),
        ("/v1/platform/clubs?city=a%00b", "city"),
        ("/v1/platform/clubs?sport=%00", "sport"),
        ("/v1/platform/areas?q=%00", "q"),
        ("/v1/platform/areas?sport=padel,%00", "sport"),
        ("/v1/platform/area-types?q=%00", "q"),
        ("/v1/platform/availability?clubId={club}&startDate=2031-03-04&sport=%00", "sport"),
    ],
)
def test_nul_in_a_text_filter_is_400(api, club, path, field):
    assert_400(api.get(path.format(club=club.id)), field)


def test_nul_in_a_club_slug_is_404(api, club):
    response = api.get("/v1/platform/clubs/%00")
    assert response.status_code == 404
    assert response.json()["code"] == "NOT_FOUND"


@pytest.mark.parametrize(
    "start,end,field",
    [
        ("9999-12-31T23:30:00Z", "9999-12-31T23:59:00Z", "startTime"),
        ("0001-01-01T00:00:00Z", "0001-01-01T01:00:00Z", "startTime"),
        ("2031-03-04T10:00:00Z", "9999-12-31T23:59:00Z", "endTime"),
    ],
)
def test_block_out_of_range_times_are_400(api, area, start, end, field):
    response = api.post(
        "/v1/platform/area-blocks", {"areaId": area.id, "startTime": start, "endTime": end}, format="json"
    )
    assert response.status_code == 400, response.content
    assert field in response.json()["details"]["fields"]
    assert not AreaBlock.objects.exists()


@pytest.mark.parametrize(
    "query,field",
    [
        ("startDate=9999-12-31", "startDate"),
        ("startDate=9999-12-31T23:00:00Z", "startDate"),
        ("startDate=0001-01-01T00:00:00Z", "startDate"),
        ("startDate=2031-03-04&endDate=9999-12-31", "endDate"),
        ("startDate=2031-03-04&minDurationMinutes=99999999999999999999", "minDurationMinutes"),
        ("startDate=2031-03-04&minDurationMinutes=20161", "minDurationMinutes"),
    ],
)
def test_availability_out_of_range_values_are_400(api, club, area, query, field):
    assert_400(api.get(f"/v1/platform/availability?clubId={club.id}&{query}"), field)


def test_availability_longest_min_duration_is_accepted(api, club, area):
    response = api.get(f"/v1/platform/availability?clubId={club.id}&startDate=2031-03-04&minDurationMinutes=20160")
    assert response.status_code == 200 and response.json()["data"] == []


def test_block_list_with_a_last_representable_day_is_400(api, area):
    assert_400(api.get("/v1/platform/area-blocks?endDate=9999-12-31"), "endDate")


def test_free_time_starting_now_is_on_a_whole_minute(api, organization, club, area):
    club.opening_hours = {d: [["00:00", "24:00"]] for d in services.WEEKDAYS}
    club.save()
    now = dt.datetime(2031, 3, 4, 10, 20, 13, 520000, tzinfo=dt.UTC)
    with mock.patch("apps.occupancy.api.views.timezone.now", return_value=now):
        body = api.get(f"/v1/platform/availability?clubId={club.id}&startDate=2031-03-04").json()
    assert body["data"][0]["startTime"] == "2031-03-04T10:21:00Z"
    assert body["data"][0]["endTime"] == "2031-03-04T23:00:00Z"  # midnight in Madrid (UTC+1)
    assert availability.next_whole_minute(now.replace(second=0, microsecond=0)) == now.replace(second=0, microsecond=0)


def test_empty_patch_keeps_updated_at(api, area):
    before = api.get(f"/v1/platform/areas/{area.id}").json()
    assert api.patch(f"/v1/platform/areas/{area.id}", {}, format="json").json() == before
    assert api.patch(f"/v1/platform/areas/{area.id}", {"name": area.name}, format="json").json() == before
    area_type = AreaType.objects.create(organization=area.organization, name="Padel", slug="padel")
    before = api.get(f"/v1/platform/area-types/{area_type.id}").json()
    assert api.patch(f"/v1/platform/area-types/{area_type.id}", {"name": "Padel"}, format="json").json() == before
    changed = api.patch(f"/v1/platform/area-types/{area_type.id}", {"name": "Pádel"}, format="json").json()
    assert changed["name"] == "Pádel" and changed["updatedAt"] > before["updatedAt"]


def test_area_type_slug_taken_by_a_concurrent_writer_is_409(api, organization, monkeypatch):
    existing = AreaType.objects.create(organization=organization, name="Padel", slug="padel")
    real = slugs.holder_of
    calls = []

    def first_check_misses(*args, **kwargs):  # another request inserts the slug just after the check
        calls.append(args)
        return real(*args, **kwargs) if len(calls) > 1 else None

    monkeypatch.setattr(slugs, "holder_of", first_check_misses)
    response = api.post("/v1/platform/area-types", {"name": "Padel", "slug": "padel"}, format="json")
    assert response.status_code == 409, response.content
    assert response.json()["code"] == "DUPLICATE_VALUE"
    assert response.json()["details"] == {"field": "slug", "existingId": existing.id}
    assert AreaType.objects.count() == 1


def test_a_derived_area_type_slug_taken_by_a_concurrent_writer_is_derived_again(api, organization, monkeypatch):
    AreaType.objects.create(organization=organization, name="Padel", slug="padel")
    real = slugs.free_slug
    calls = []

    def first_derivation_misses(*args, **kwargs):  # another request took "padel" after this one looked
        calls.append(args)
        return "padel" if len(calls) == 1 else real(*args, **kwargs)

    monkeypatch.setattr(slugs, "free_slug", first_derivation_misses)
    response = api.post("/v1/platform/area-types", {"name": "Pádel"}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["slug"] == "padel-2"
    assert len(calls) == 2


def test_unblock_twice_is_404_and_emits_once(api, organization, events, django_capture_on_commit_callbacks):
    area = make_area(organization)
    start = dt.datetime(2031, 3, 4, 10, tzinfo=dt.UTC)
    block = AreaBlock.objects.create(
        organization=organization, club=area.club, area=area, start_time=start, end_time=start + dt.timedelta(hours=1)
    )
    stale = AreaBlock.objects.get(pk=block.pk)
    with django_capture_on_commit_callbacks(execute=True):
        blocks.delete_block(block)
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(NotFound):
        blocks.delete_block(stale)
    assert len(events("area_block.deleted")) == 1


def test_availability_on_a_25_hour_day_and_across_midnight(api, organization, club, area):
    from apps.bookings.models import Booking

    club.opening_hours = {d: [["00:00", "24:00"]] for d in services.WEEKDAYS}
    club.save()
    # Madrid falls back on Sunday 2031-10-26: that day runs 22:00Z (25th) .. 23:00Z (26th), 25 hours.
    Booking.objects.create(
        organization=organization,
        type="area",
        club=club,
        area=area,
        start_time=dt.datetime(2031, 10, 26, 21, 30, tzinfo=dt.UTC),  # 22:30 local, into the next day
        end_time=dt.datetime(2031, 10, 26, 23, 30, tzinfo=dt.UTC),
    )
    body = api.get(f"/v1/platform/availability?clubId={club.id}&startDate=2031-10-26&endDate=2031-10-27").json()
    assert [(r["startTime"], r["endTime"]) for r in body["data"]] == [
        ("2031-10-25T22:00:00Z", "2031-10-26T21:30:00Z"),
        ("2031-10-26T23:30:00Z", "2031-10-27T23:00:00Z"),
    ]
    beyond = api.get(f"/v1/platform/availability?clubId={club.id}&startDate=2031-10-26&offset=10").json()
    assert beyond == {"data": [], "total": 1, "limit": 50, "offset": 10}
