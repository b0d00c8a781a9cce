import datetime as dt

import pytest

from apps.clubs.models import Area, AreaType
from tests.factories import make_area, make_club

pytestmark = pytest.mark.django_db


def test_create_area_full(api, organization, club, area_type, events, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(
            "/v1/platform/areas",
            {
                "clubId": club.id,
                "name": "Court 7",
                "areaTypeId": area_type.id,
                "sports": ["padel"],
                "hourlyRate": 24.5,
                "isIndoor": True,
                "images": ["https://img.example/7.jpg"],
                "position": 7,
                "id": 999,
                "createdAt": "2020-01-01T00:00:00Z",
            },
            format="json",
        )
    assert response.status_code == 201, response.content
    body = response.json()
    area = Area.objects.get()
    assert response["Location"] == f"/v1/platform/areas/{area.id}"
    assert body == {
        "id": area.id,
        "clubId": club.id,
        "name": "Court 7",
        "areaTypeId": area_type.id,
        "areaType": {"id": area_type.id, "name": "Padel court"},
        "sports": ["padel"],
        "hourlyRate": 24.5,
        "isIndoor": True,
        "isActive": True,
        "images": ["https://img.example/7.jpg"],
        "position": 7,
        "createdAt": body["createdAt"],
        "updatedAt": body["updatedAt"],
    }
    assert body["createdAt"].endswith("Z")
    assert area.organization == organization and str(area.hourly_rate) == "24.50"
    today = dt.datetime.now(dt.UTC).astimezone(__import__("zoneinfo").ZoneInfo("Europe/Madrid")).date().isoformat()
    assert events("availability.changed") == [
        {
            "organizationId": organization.id,
            "clubId": club.id,
            "areaId": area.id,
            "date": today,
            "startTime": None,
            "endTime": None,
            "cause": "area",
        }
    ]


def test_create_area_minimal_defaults(api, club):
    make_area(club.organization, club, position=4)
    response = api.post("/v1/platform/areas", {"clubId": club.id, "name": "Court X"}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["areaTypeId"] is None and body["areaType"] is None
    assert body["sports"] == [] and body["images"] == [] and body["hourlyRate"] is None
    assert body["isIndoor"] is False and body["isActive"] is True
    assert body["position"] == 5  # after the club's last area


def test_create_area_requires_club_and_name(api):
    response = api.post("/v1/platform/areas", {}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "VALIDATION_ERROR"
    assert set(body["details"]["fields"]) == {"clubId", "name"}
    assert not Area.objects.exists()


def test_create_area_foreign_ids_are_400_on_the_field(api, other_organization, club):
    foreign_club = make_club(other_organization)
    foreign_type = AreaType.objects.create(organization=other_organization, name="X", slug="x")
    response = api.post("/v1/platform/areas", {"clubId": foreign_club.id, "name": "C"}, format="json")
    assert response.status_code == 400
    assert list(response.json()["details"]["fields"]) == ["clubId"]
    response = api.post(
        "/v1/platform/areas", {"clubId": club.id, "name": "C", "areaTypeId": foreign_type.id}, format="json"
    )
    assert response.status_code == 400
    assert list(response.json()["details"]["fields"]) == ["areaTypeId"]
    assert not Area.objects.exists()


@pytest.mark.parametrize(
    "field,value",
    [("hourlyRate", -1), ("hourlyRate", "abc"), ("sports", "padel"), ("name", ""), ("clubId", "1"), ("position", "x")],
)
def test_create_area_bad_values(api, club, field, value):
    body = {"clubId": club.id, "name": "C", field: value}
    response = api.post("/v1/platform/areas", body, format="json")
    assert response.status_code == 400
    assert field in response.json()["details"]["fields"]


def test_get_area(api, area):
    response = api.get(f"/v1/platform/areas/{area.id}")
    assert response.status_code == 200
    assert response.json()["hourlyRate"] == 20.0
    assert response.json()["areaType"] == {"id": area.area_type_id, "name": "Padel court"}


def test_patch_area_partial_and_null_clears(api, area, events, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = api.patch(
            f"/v1/platform/areas/{area.id}",
            {"name": "Court One", "hourlyRate": None, "areaTypeId": None, "clubId": 12345},
            format="json",
        )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["name"] == "Court One" and body["hourlyRate"] is None and body["areaType"] is None
    assert body["sports"] == ["padel"]  # untouched
    assert body["clubId"] == area.club_id  # the club of an area is fixed at creation
    area.refresh_from_db()
    assert area.name == "Court One" and area.hourly_rate is None
    assert events("availability.changed") == []  # isActive unchanged: no event


def test_patch_is_active_emits_availability_changed(api, area, events, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        api.patch(f"/v1/platform/areas/{area.id}", {"isActive": True}, format="json")
    assert events("availability.changed") == []
    with django_capture_on_commit_callbacks(execute=True):
        response = api.patch(f"/v1/platform/areas/{area.id}", {"isActive": False}, format="json")
    assert response.json()["isActive"] is False
    [event] = events("availability.changed")
    assert event["areaId"] == area.id and event["cause"] == "area" and event["clubId"] == area.club_id


def test_area_put_and_delete_are_405(api, area):
    for method in ("put", "delete"):
        response = getattr(api, method)(f"/v1/platform/areas/{area.id}", {"name": "x"}, format="json")
        assert response.status_code == 405
        assert response.json()["code"] == "METHOD_NOT_ALLOWED"
        assert set(response["Allow"].replace(" ", "").split(",")) >= {"GET", "PATCH"}
        assert "DELETE" not in response["Allow"]
    assert Area.objects.filter(id=area.id).exists()


def test_patch_foreign_area_is_404(api, other_organization):
    foreign = make_area(other_organization)
    response = api.patch(f"/v1/platform/areas/{foreign.id}", {"name": "Mine"}, format="json")
    assert response.status_code == 404
    foreign.refresh_from_db()
    assert foreign.name != "Mine"


def test_list_areas_filters_and_ordering(api, organization, club, area_type):
    other_club = make_club(organization)
    a = make_area(organization, club, name="Beta", position=2, sports=["padel"], area_type=area_type)
    b = make_area(organization, club, name="Alpha", position=3, sports=["tennis"])
    c = make_area(organization, other_club, name="Gamma", position=1, sports=["padel"], is_active=False)

    def ids(query=""):
        response = api.get(f"/v1/platform/areas{query}")
        assert response.status_code == 200, response.content
        return [x["id"] for x in response.json()["data"]]

    assert ids() == [c.id, a.id, b.id]
    assert ids("?ordering=name") == [b.id, a.id, c.id]
    assert ids("?ordering=-position") == [b.id, a.id, c.id]
    assert ids(f"?clubId={club.id}") == [a.id, b.id]
    assert ids(f"?areaTypeId={area_type.id}") == [a.id]
    assert ids("?sport=padel") == [c.id, a.id]
    assert ids("?isActive=false") == [c.id]
    assert ids("?isActive=true") == [a.id, b.id]
    assert ids("?q=alp") == [b.id]
    assert ids("?unknown=1") == [c.id, a.id, b.id]


@pytest.mark.parametrize("query", ["isActive=yes", "clubId=abc", "ordering=createdAt", "limit=0", "offset=-1"])
def test_list_areas_bad_params(api, query):
    response = api.get(f"/v1/platform/areas?{query}")
    assert response.status_code == 400
    assert response.json()["code"] == "VALIDATION_ERROR"


def test_list_areas_query_count(api, organization, club, count_queries):
    make_area(organization, club, area_type=AreaType.objects.create(organization=organization, name="a", slug="a"))
    one = count_queries("/v1/platform/areas?limit=200")
    for i in range(15):
        t = AreaType.objects.create(organization=organization, name=f"t{i}", slug=f"t{i}")
        make_area(organization, club, area_type=t)
    assert count_queries("/v1/platform/areas?limit=200") == one


def test_areas_write_needs_write_scope(client_for, club):
    response = client_for("areas:read").post("/v1/platform/areas", {"clubId": club.id, "name": "C"}, format="json")
    assert response.status_code == 403
    assert response.json() == {"error": "Insufficient access scope", "requiredScope": "areas:write"}


# --- Area types ---------------------------------------------------------------------------------------------


def test_create_area_type_slug_generated_and_unique(api, organization):
    response = api.post("/v1/platform/area-types", {"name": "Padel Court", "maxPlayers": 4}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    t = AreaType.objects.get()
    assert response["Location"] == f"/v1/platform/area-types/{t.id}"
    assert body == {
        "id": t.id,
        "name": "Padel Court",
        "slug": "padel-court",
        "maxPlayers": 4,
        "createdAt": body["createdAt"],
        "updatedAt": body["updatedAt"],
    }
    second = api.post("/v1/platform/area-types", {"name": "Padel court"}, format="json").json()
    assert second["slug"] == "padel-court-2" and second["maxPlayers"] is None


def test_create_area_type_explicit_duplicate_slug_is_409(api, organization, other_organization):
    AreaType.objects.create(organization=other_organization, name="Studio", slug="studio")
    first = api.post("/v1/platform/area-types", {"name": "Studio", "slug": "studio"}, format="json")
    assert first.status_code == 201  # slugs are unique per organization only
    response = api.post("/v1/platform/area-types", {"name": "Studio B", "slug": "studio"}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "DUPLICATE_VALUE"
    assert response.json()["details"] == {"field": "slug", "existingId": first.json()["id"]}


@pytest.mark.parametrize("body", [{}, {"name": ""}, {"name": "x", "maxPlayers": 0}, {"name": "x", "slug": "a b"}])
def test_create_area_type_invalid(api, body):
    response = api.post("/v1/platform/area-types", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "VALIDATION_ERROR"
    assert not AreaType.objects.exists()


def test_patch_area_type(api, organization, area_type):
    other = AreaType.objects.create(organization=organization, name="Tennis", slug="tennis")
    response = api.patch(
        f"/v1/platform/area-types/{area_type.id}", {"maxPlayers": None, "name": "Padel"}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["maxPlayers"] is None and response.json()["name"] == "Padel"
    assert response.json()["slug"] == "padel-court"  # renaming keeps the slug
    response = api.patch(f"/v1/platform/area-types/{area_type.id}", {"slug": "tennis"}, format="json")
    assert response.status_code == 409
    assert response.json()["details"] == {"field": "slug", "existingId": other.id}
    response = api.patch(f"/v1/platform/area-types/{area_type.id}", {"slug": "padel-court"}, format="json")
    assert response.status_code == 200  # its own slug is not a conflict


def test_list_and_get_area_types(api, organization, other_organization):
    a = AreaType.objects.create(organization=organization, name="Beta", slug="beta")
    b = AreaType.objects.create(organization=organization, name="Alpha", slug="alpha")
    AreaType.objects.create(organization=other_organization, name="Foreign", slug="foreign")
    body = api.get("/v1/platform/area-types").json()
    assert [x["id"] for x in body["data"]] == [b.id, a.id] and body["total"] == 2
    assert [x["id"] for x in api.get("/v1/platform/area-types?ordering=name").json()["data"]] == [b.id, a.id]
    assert [x["id"] for x in api.get("/v1/platform/area-types?q=bet").json()["data"]] == [a.id]
    assert api.get(f"/v1/platform/area-types/{a.id}").json()["slug"] == "beta"
    assert api.delete(f"/v1/platform/area-types/{a.id}").status_code == 405
