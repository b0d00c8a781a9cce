import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.bookings.models import Booking
from apps.occupancy.models import AreaBlock
from tests.clubs.cases import make_block
from tests.factories import make_area, make_club

pytestmark = pytest.mark.django_db

T10 = dt.datetime(2031, 3, 4, 10, tzinfo=dt.UTC)


def booking(area, start, end, status="confirmed", type="area"):
    return Booking.objects.create(
        organization=area.organization,
        type=type,
        status=status,
        club=area.club,
        area=area,
        start_time=start,
        end_time=end,
    )


def test_block_an_area(api, organization, area, events, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(
            "/v1/platform/area-blocks",
            {
                "areaId": area.id,
                "startTime": "2031-03-04T11:00:00+01:00",
                "endTime": "2031-03-04T13:30:00+01:00",
                "reason": "Resurfacing",
            },
            format="json",
        )
    assert response.status_code == 201, response.content
    block = AreaBlock.objects.get()
    body = response.json()
    assert response["Location"] == f"/v1/platform/area-blocks/{block.id}"
    assert body == {
        "id": block.id,
        "clubId": area.club_id,
        "areaId": area.id,
        "startTime": "2031-03-04T10:00:00Z",
        "endTime": "2031-03-04T12:30:00Z",
        "reason": "Resurfacing",
        "createdAt": body["createdAt"],
    }
    assert block.organization == organization and block.club_id == area.club_id
    assert events("area_block.created") == [body]
    assert events("availability.changed") == [
        {
            "organizationId": organization.id,
            "clubId": area.club_id,
            "areaId": area.id,
            "date": "2031-03-04",
            "startTime": "2031-03-04T10:00:00Z",
            "endTime": "2031-03-04T12:30:00Z",
            "cause": "block",
        }
    ]


def test_block_locks_the_area_row(api, area):
    with CaptureQueriesContext(connection) as ctx:
        response = api.post(
            "/v1/platform/area-blocks",
            {"areaId": area.id, "startTime": "2031-03-04T10:00:00Z", "endTime": "2031-03-04T11:00:00Z"},
            format="json",
        )
    assert response.status_code == 201
    assert response.json()["reason"] is None
    assert any('FROM "clubs_area"' in q["sql"] and "FOR UPDATE" in q["sql"] for q in ctx.captured_queries)


def test_block_over_active_booking_is_409(api, area, events, django_capture_on_commit_callbacks):
    first = booking(area, T10, T10 + dt.timedelta(hours=1))
    second = booking(area, T10 + dt.timedelta(hours=2), T10 + dt.timedelta(hours=3), status="pending")
    booking(area, T10, T10 + dt.timedelta(hours=3), status="cancelled")  # not active: no conflict
    booking(area, T10 + dt.timedelta(hours=3), T10 + dt.timedelta(hours=4))  # touches the end: no overlap
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(
            "/v1/platform/area-blocks",
            {"areaId": area.id, "startTime": "2031-03-04T10:30:00Z", "endTime": "2031-03-04T13:00:00Z"},
            format="json",
        )
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "SLOT_UNAVAILABLE"
    assert body["details"] == {"conflicts": [{"type": "booking", "id": first.id}, {"type": "booking", "id": second.id}]}
    assert not AreaBlock.objects.exists()
    assert events() == []


def test_block_next_to_booking_and_on_other_area_is_fine(api, organization, area):
    other = make_area(organization, area.club)
    booking(other, T10, T10 + dt.timedelta(hours=1))
    booking(area, T10 - dt.timedelta(hours=1), T10)
    response = api.post(
        "/v1/platform/area-blocks",
        {"areaId": area.id, "startTime": "2031-03-04T10:00:00Z", "endTime": "2031-03-04T11:00:00Z"},
        format="json",
    )
    assert response.status_code == 201


@pytest.mark.parametrize(
    "body,field",
    [
        ({"startTime": "2031-03-04T10:00:00Z", "endTime": "2031-03-04T11:00:00Z"}, "areaId"),
        ({"startTime": "2031-03-04T10:00:00", "endTime": "2031-03-04T11:00:00Z"}, "startTime"),
        ({"startTime": "2031-03-04T10:00:00Z", "endTime": "2031-03-04T10:00:00Z"}, "endTime"),
        ({"startTime": "2031-03-04T10:00:00Z", "endTime": "2031-03-04T09:00:00Z"}, "endTime"),
        ({"startTime": "2031-03-04T10:00:00Z"}, "endTime"),
        ({"startTime": "tomorrow", "endTime": "2031-03-04T09:00:00Z"}, "startTime"),
    ],
)
def test_block_invalid_body(api, area, body, field):
    body = {"areaId": area.id, **body} if field != "areaId" else body
    response = api.post("/v1/platform/area-blocks", body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "VALIDATION_ERROR"
    assert field in response.json()["details"]["fields"]
    assert not AreaBlock.objects.exists()


def test_block_foreign_area_is_400(api, other_organization):
    foreign = make_area(other_organization)
    response = api.post(
        "/v1/platform/area-blocks",
        {"areaId": foreign.id, "startTime": "2031-03-04T10:00:00Z", "endTime": "2031-03-04T11:00:00Z"},
        format="json",
    )
    assert response.status_code == 400
    assert list(response.json()["details"]["fields"]) == ["areaId"]


def test_unblock(api, organization, area, events, django_capture_on_commit_callbacks):
    block = make_block(organization, area)
    before = api.get(f"/v1/platform/area-blocks/{block.id}").json()
    with django_capture_on_commit_callbacks(execute=True):
        response = api.delete(f"/v1/platform/area-blocks/{block.id}")
    assert response.status_code == 204
    assert response.content == b""
    assert not AreaBlock.objects.exists()
    assert events("area_block.deleted") == [before]
    [changed] = events("availability.changed")
    assert changed["cause"] == "block" and changed["startTime"] == "2031-03-04T10:00:00Z"
    assert api.delete(f"/v1/platform/area-blocks/{block.id}").status_code == 404


def test_block_patch_is_405(api, organization, area):
    block = make_block(organization, area)
    response = api.patch(f"/v1/platform/area-blocks/{block.id}", {"reason": "x"}, format="json")
    assert response.status_code == 405


def test_list_blocks_filters(api, organization, club, area):
    other_area = make_area(organization, club)
    tokyo = make_club(organization, timezone="Asia/Tokyo")
    tokyo_area = make_area(organization, tokyo)

    def block(a, start, hours=1):
        return AreaBlock.objects.create(
            organization=organization, club=a.club, area=a, start_time=start, end_time=start + dt.timedelta(hours=hours)
        )

    # 2031-03-04 on the Madrid clock is 2031-03-03T23:00Z .. 2031-03-04T23:00Z
    late = block(area, dt.datetime(2031, 3, 3, 23, 30, tzinfo=dt.UTC))  # 00:30 local on the 4th
    early = block(other_area, dt.datetime(2031, 3, 3, 22, 0, tzinfo=dt.UTC))  # 23:00-24:00 local on the 3rd
    spanning = block(area, dt.datetime(2031, 3, 3, 20, 0, tzinfo=dt.UTC), hours=48)
    # 2031-03-04 in Tokyo is 2031-03-03T15:00Z .. 2031-03-04T15:00Z
    tokyo_block = block(tokyo_area, dt.datetime(2031, 3, 3, 16, 0, tzinfo=dt.UTC))
    after = block(area, dt.datetime(2031, 3, 5, 10, 0, tzinfo=dt.UTC))

    def ids(query=""):
        response = api.get(f"/v1/platform/area-blocks{query}")
        assert response.status_code == 200, response.content
        return [x["id"] for x in response.json()["data"]]

    assert ids() == [tokyo_block.id, spanning.id, early.id, late.id, after.id]
    assert ids("?startDate=2031-03-04&endDate=2031-03-04") == [tokyo_block.id, spanning.id, late.id]
    assert ids(f"?clubId={club.id}&startDate=2031-03-04&endDate=2031-03-04") == [spanning.id, late.id]
    assert ids(f"?areaId={other_area.id}") == [early.id]
    assert ids("?startDate=2031-03-05") == [spanning.id, after.id]
    assert ids("?endDate=2031-03-03") == [spanning.id, early.id]  # the Tokyo block is on the 4th in Tokyo
    assert ids("?startDate=2031-03-05T10:30:00Z&endDate=2031-03-05T11:00:00%2B00:00") == [spanning.id, after.id]
    assert ids("?ordering=-startTime") == [after.id, late.id, early.id, spanning.id, tokyo_block.id]


@pytest.mark.parametrize(
    "query", ["startDate=2031-13-01", "startDate=2031-03-05&endDate=2031-03-04", "areaId=x", "ordering=reason"]
)
def test_list_blocks_bad_params(api, query):
    response = api.get(f"/v1/platform/area-blocks?{query}")
    assert response.status_code == 400
    assert response.json()["code"] == "VALIDATION_ERROR"


def test_list_blocks_query_count(api, organization, count_queries):
    make_block(organization)
    url = "/v1/platform/area-blocks?limit=200&startDate=2031-03-01&endDate=2031-03-10"
    one = count_queries(url)
    for _ in range(10):
        make_block(organization)  # each in its own club
    assert count_queries(url) == one


def test_foreign_block_is_404(api, other_organization):
    block = make_block(other_organization)
    assert api.get(f"/v1/platform/area-blocks/{block.id}").status_code == 404
    assert api.delete(f"/v1/platform/area-blocks/{block.id}").status_code == 404
    assert AreaBlock.objects.filter(id=block.id).exists()
