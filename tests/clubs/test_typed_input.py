"""Typed input (decisions/foundation-api.md #21): areas, area types and area blocks refuse a value of the wrong JSON
type with a 400 naming the field, and write nothing."""

import datetime as dt

import pytest

from apps.clubs.models import Area, AreaType
from apps.occupancy.models import AreaBlock
from tests.typed_input import BOOL, INTEGER, NUMBER, STRING, assert_rejected


@pytest.mark.parametrize(
    ("extra", "field", "message"),
    [
        ({"name": 5}, "name", STRING),
        ({"hourlyRate": "20.00"}, "hourlyRate", NUMBER),
        ({"isIndoor": "true"}, "isIndoor", BOOL),
        ({"isActive": 0}, "isActive", BOOL),
        ({"position": "3"}, "position", INTEGER),
        ({"position": 2.5}, "position", INTEGER),
        ({"position": 2**63}, "position", "Ensure this value is less than or equal to 1000000."),
        ({"sports": ["padel", 1]}, "sports.1", STRING),
        ({"images": [5]}, "images.0", STRING),
    ],
)
def test_area_create_refuses_wrong_json_types(api, club, extra, field, message):
    response = api.post("/v1/platform/areas", {"clubId": club.id, "name": "Court X", **extra}, format="json")
    assert_rejected(response, field, message)
    assert not Area.objects.exists()


def test_area_update_refuses_a_string_boolean(api, area):
    response = api.patch(f"/v1/platform/areas/{area.id}", {"isActive": "false"}, format="json")
    assert_rejected(response, "isActive", BOOL)
    area.refresh_from_db()
    assert area.is_active is True


@pytest.mark.parametrize(
    ("extra", "field", "message"),
    [
        ({"name": 12}, "name", STRING),
        ({"slug": 5}, "slug", STRING),
        ({"maxPlayers": "4"}, "maxPlayers", INTEGER),
        ({"maxPlayers": True}, "maxPlayers", INTEGER),
        ({"maxPlayers": 2**31}, "maxPlayers", "Ensure this value is less than or equal to 1000."),
    ],
)
def test_area_type_create_refuses_wrong_json_types(api, organization, extra, field, message):
    response = api.post("/v1/platform/area-types", {"name": "Squash", **extra}, format="json")
    assert_rejected(response, field, message)
    assert not AreaType.objects.filter(organization=organization).exists()


def test_area_block_refuses_a_number_for_a_reason(api, area):
    start = dt.datetime(2031, 3, 3, 9, tzinfo=dt.UTC)
    body = {
        "areaId": area.id,
        "startTime": start.isoformat(),
        "endTime": (start + dt.timedelta(hours=1)).isoformat(),
        "reason": 404,
    }
    response = api.post("/v1/platform/area-blocks", body, format="json")
    assert_rejected(response, "reason", STRING)
    assert not AreaBlock.objects.exists()
