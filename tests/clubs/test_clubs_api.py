import pytest

from apps.clubs.models import Amenity, Area, Club, ClubReview
from tests.factories import make_area, make_club

pytestmark = pytest.mark.django_db


@pytest.fixture
def amenities():
    Amenity.objects.create(code="parking", names={"en": "Parking", "es": "Aparcamiento"}, icon="car", category="access")
    Amenity.objects.create(code="showers", names={"es": "Duchas"}, icon=None, category="facilities")
    Amenity.objects.create(code="cafe", names={}, icon="cup", category=None)


@pytest.fixture
def full_club(organization, club, amenities):
    club.address = "Calle Mayor 1"
    club.state = "Madrid"
    club.postal_code = "28013"
    club.phone = "+34 600 000 000"
    club.email = "hola@centre.example"
    club.website = "https://centre.example"
    club.logo = "https://img.example/logo.png"
    club.images = ["https://img.example/1.jpg", "https://img.example/2.jpg"]
    club.amenities = ["parking", "showers", "cafe"]
    club.social_profiles = {"instagram": "https://instagram.com/centre"}
    club.save()
    Area.objects.create(
        organization=organization, club=club, name="Court 2", position=2, images=["https://img.example/c2.jpg"]
    )
    Area.objects.create(
        organization=organization,
        club=club,
        name="Court 1",
        position=1,
        images=["https://img.example/2.jpg", "https://img.example/c1.jpg"],
    )
    Area.objects.create(
        organization=organization,
        club=club,
        name="Old court",
        position=0,
        is_active=False,
        images=["https://img.example/old.jpg"],
    )
    ClubReview.objects.create(organization=organization, club=club, rating=5)
    ClubReview.objects.create(organization=organization, club=club, rating=4)
    ClubReview.objects.create(organization=organization, club=club, rating=4)
    ClubReview.objects.create(organization=organization, club=club, rating=1, is_public=False)
    return club


def test_get_club_full_shape(api, full_club):
    response = api.get("/v1/platform/clubs/centre-court")
    assert response.status_code == 200
    assert response.json() == {
        "id": full_club.id,
        "name": "Centre Court",
        "slug": "centre-court",
        "address": "Calle Mayor 1",
        "city": "Madrid",
        "state": "Madrid",
        "country": "ES",
        "postalCode": "28013",
        "phone": "+34 600 000 000",
        "email": "hola@centre.example",
        "website": "https://centre.example",
        "logo": "https://img.example/logo.png",
        "images": [
            "https://img.example/1.jpg",
            "https://img.example/2.jpg",
            "https://img.example/c1.jpg",
            "https://img.example/c2.jpg",
        ],
        "amenities": ["parking", "showers", "cafe"],
        "amenitiesResolved": [
            {"id": "parking", "name": "Parking", "icon": "car", "category": "access"},
            {"id": "showers", "name": "showers", "icon": None, "category": "facilities"},
            {"id": "cafe", "name": "cafe", "icon": "cup", "category": None},
        ],
        "sports": ["padel", "tennis"],
        "rating": {"average": 4.3, "total": 3},
        "socialProfiles": {"instagram": "https://instagram.com/centre"},
        "timezone": "Europe/Madrid",
    }


def test_get_club_locale_resolves_amenity_names(api, full_club):
    body = api.get("/v1/platform/clubs/centre-court?locale=es").json()
    assert [a["name"] for a in body["amenitiesResolved"]] == ["Aparcamiento", "Duchas", "cafe"]
    # an unknown locale falls back to the organization's default language, not an error
    body = api.get("/v1/platform/clubs/centre-court?locale=xx").json()
    assert [a["name"] for a in body["amenitiesResolved"]] == ["Parking", "showers", "cafe"]


def test_rating_omitted_without_public_reviews(api, organization, club):
    ClubReview.objects.create(organization=organization, club=club, rating=5, is_public=False)
    body = api.get("/v1/platform/clubs/centre-court").json()
    assert "rating" not in body
    assert body["amenities"] == [] and body["amenitiesResolved"] == [] and body["images"] == []
    assert body["socialProfiles"] == {}
    assert body["address"] is None


def test_unknown_amenity_code_is_still_listed(api, club):
    club.amenities = ["sauna"]
    club.save()
    body = api.get("/v1/platform/clubs/centre-court").json()
    assert body["amenitiesResolved"] == [{"id": "sauna", "name": "sauna", "icon": None, "category": None}]


def test_inactive_club_is_still_readable(api, club):
    club.is_active = False
    club.save()
    assert api.get("/v1/platform/clubs/centre-court").status_code == 200
    assert api.get("/v1/platform/clubs").json()["total"] == 1


def test_unknown_and_foreign_slug_are_404(api, other_organization):
    make_club(other_organization, slug="rival")
    for slug in ("nope", "rival"):
        response = api.get(f"/v1/platform/clubs/{slug}")
        assert response.status_code == 404
        assert response.json()["code"] == "NOT_FOUND"


@pytest.mark.parametrize(
    "method,path",
    [
        ("post", "/v1/platform/clubs"),
        ("patch", "/v1/platform/clubs/centre-court"),
        ("delete", "/v1/platform/clubs/centre-court"),
        ("put", "/v1/platform/clubs/centre-court"),
    ],
)
def test_club_writes_are_405(api, club, method, path):
    response = getattr(api, method)(path, {"name": "X"}, format="json")
    assert response.status_code == 405
    assert response.json()["code"] == "METHOD_NOT_ALLOWED"
    assert "GET" in response["Allow"]
    assert "POST" not in response["Allow"] and "PATCH" not in response["Allow"]
    club.refresh_from_db()
    assert club.name == "Centre Court"


def test_list_clubs_default_order_filters_and_search(api, organization, other_organization):
    a = make_club(organization, name="Alpha Padel", slug="alpha", city="Madrid", sports=["padel"])
    b = make_club(organization, name="Beta Tennis", slug="beta", city="Barcelona", sports=["tennis"])
    c = make_club(organization, name="Gamma", slug="gamma", city="Sevilla", sports=["padel", "tennis"])
    make_club(other_organization, name="Alpha Rival", slug="alpha", city="Madrid")

    body = api.get("/v1/platform/clubs").json()
    assert [x["id"] for x in body["data"]] == [c.id, b.id, a.id]  # -createdAt
    assert body["total"] == 3 and body["limit"] == 50 and body["offset"] == 0

    assert [x["id"] for x in api.get("/v1/platform/clubs?ordering=name").json()["data"]] == [a.id, b.id, c.id]
    assert [x["id"] for x in api.get("/v1/platform/clubs?ordering=-name").json()["data"]] == [c.id, b.id, a.id]
    assert [x["id"] for x in api.get("/v1/platform/clubs?ordering=createdAt").json()["data"]] == [a.id, b.id, c.id]
    assert [x["id"] for x in api.get("/v1/platform/clubs?city=madrid").json()["data"]] == [a.id]
    assert [x["id"] for x in api.get("/v1/platform/clubs?sport=padel&ordering=name").json()["data"]] == [a.id, c.id]
    assert [x["id"] for x in api.get("/v1/platform/clubs?q=SEVI").json()["data"]] == [c.id]
    assert [x["id"] for x in api.get("/v1/platform/clubs?q=beta").json()["data"]] == [b.id]
    page = api.get("/v1/platform/clubs?ordering=name&limit=1&offset=1").json()
    assert [x["id"] for x in page["data"]] == [b.id] and page["total"] == 3


def test_list_clubs_bad_ordering_is_400(api):
    response = api.get("/v1/platform/clubs?ordering=city")
    assert response.status_code == 400
    assert response.json()["code"] == "VALIDATION_ERROR"
    assert "ordering" in response.json()["details"]["fields"]


def test_list_clubs_query_count_is_constant(api, organization, count_queries):
    Amenity.objects.create(code="parking", names={"en": "Parking"})
    club = make_club(organization, amenities=["parking"])
    make_area(organization, club, images=["x"])
    ClubReview.objects.create(organization=organization, club=club, rating=3)
    one = count_queries("/v1/platform/clubs?limit=200")
    for _ in range(20):
        club = make_club(organization, amenities=["parking", "cafe"])
        make_area(organization, club, images=["y"])
        make_area(organization, club, images=["z"])
        ClubReview.objects.create(organization=organization, club=club, rating=5)
    assert count_queries("/v1/platform/clubs?limit=200") == one


def test_list_rating_per_club(api, organization):
    a = make_club(organization, slug="a")
    make_club(organization, slug="b")
    ClubReview.objects.create(organization=organization, club=a, rating=3)
    ClubReview.objects.create(organization=organization, club=a, rating=4)
    data = {c["slug"]: c for c in api.get("/v1/platform/clubs").json()["data"]}
    assert data["a"]["rating"] == {"average": 3.5, "total": 2}
    assert "rating" not in data["b"]


def test_clubs_read_scope_only(client_for, club):
    assert client_for("clubs:read").get("/v1/platform/clubs/centre-court").status_code == 200
    response = client_for("areas:read").get("/v1/platform/clubs")
    assert response.status_code == 403
    assert response.json() == {"error": "Insufficient access scope", "requiredScope": "clubs:read"}


def test_club_is_unique_only_per_org(organization, other_organization):
    make_club(organization, slug="same")
    make_club(other_organization, slug="same")
    assert Club.objects.filter(slug="same").count() == 2


def test_openapi_documents_every_clubs_operation(client):
    doc = client.get("/v1/openapi.json").json()
    expected = {
        ("get", "/v1/platform/clubs"): "clubs_list",
        ("get", "/v1/platform/clubs/{slug}"): "clubs_get",
        ("get", "/v1/platform/areas"): "areas_list",
        ("post", "/v1/platform/areas"): "areas_create",
        ("get", "/v1/platform/areas/{id}"): "areas_get",
        ("patch", "/v1/platform/areas/{id}"): "areas_update",
        ("get", "/v1/platform/area-types"): "area_types_list",
        ("post", "/v1/platform/area-types"): "area_types_create",
        ("get", "/v1/platform/area-types/{id}"): "area_types_get",
        ("patch", "/v1/platform/area-types/{id}"): "area_types_update",
        ("get", "/v1/platform/area-blocks"): "area_blocks_list",
        ("post", "/v1/platform/area-blocks"): "area_blocks_create",
        ("get", "/v1/platform/area-blocks/{id}"): "area_blocks_get",
        ("delete", "/v1/platform/area-blocks/{id}"): "area_blocks_delete",
        ("get", "/v1/platform/availability"): "availability_list",
    }
    for (method, path), operation_id in expected.items():
        assert doc["paths"][path][method]["operationId"] == operation_id
    assert not {"post", "patch", "put", "delete"} & set(doc["paths"]["/v1/platform/clubs/{slug}"])
    club = doc["components"]["schemas"]["Club"]
    assert "rating" not in club.get("required", []) and "timezone" in club["properties"]


def test_openapi_club_fields_nullable_as_the_spec_types_them(client):
    """Spec Club: `slug`…`logo` are string|null and `rating` is object|null (omitted without public reviews)."""
    properties = client.get("/v1/openapi.json").json()["components"]["schemas"]["Club"]["properties"]
    for name in ("slug", "address", "city", "state", "country", "postalCode", "phone", "email", "website", "logo"):
        assert properties[name].get("nullable") is True, name
    rating = properties["rating"]
    assert {"type": "object", "nullable": True, "enum": [None]} in rating.get("oneOf", []), rating
    assert properties["name"].get("nullable") is not True and properties["id"]["type"] == "integer"
