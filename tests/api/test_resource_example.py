"""The worked example of docs/architecture.md, served for real: a read-only resource with two filters is one
resource declaration, one FilterSet and one short viewset, and gets its list, item, filters, errors, tenancy,
constant query count and OpenAPI document from them."""

import datetime as dt
from decimal import Decimal
from typing import NotRequired, TypedDict

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import include, path
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework.routers import SimpleRouter

from apps.api.filtersets import BooleanFilter, IntegerFilter, Ordering, PlatformFilterSet
from apps.api.resources import PresentContext, Resource
from apps.api.scopes import crud_scopes
from apps.api.views import ResourceViewSet
from apps.clubs import models
from apps.organizations.models import Organization
from apps.webhooks.resources import WebhookResource
from config import urls as project_urls


class ClubReview(TypedDict):
    id: int
    clubId: int
    rating: int
    comment: str
    isPublic: bool
    createdAt: dt.datetime


# Every key is a model field of the same name in snake case: no subclass, no `columns`, no `present()`.
CLUB_REVIEW = Resource(ClubReview, models.ClubReview)


class ClubReviewFilterSet(PlatformFilterSet):
    clubId = IntegerFilter("club_id")
    isPublic = BooleanFilter("is_public")

    ordering = Ordering({"createdAt": "created_at", "rating": "rating"}, default="-createdAt")


@extend_schema_view(
    list=extend_schema(operation_id="club_reviews_list", summary="List club reviews", tags=["clubs"]),
    retrieve=extend_schema(operation_id="club_reviews_get", summary="Get a club review", tags=["clubs"]),
)
class ClubReviewViewSet(ResourceViewSet):
    """Reviews of the organization's clubs."""

    queryset = models.ClubReview.objects.all()
    resource = CLUB_REVIEW
    filterset_class = ClubReviewFilterSet
    required_scopes = crud_scopes("clubs", write=())


router = SimpleRouter(trailing_slash=False)
router.register("club-reviews", ClubReviewViewSet, basename="club-reviews")
urlpatterns = [path("v1/platform/", include(router.urls)), *project_urls.urlpatterns]
handler404 = project_urls.handler404
handler500 = project_urls.handler500

pytestmark = pytest.mark.urls(__name__)


def review(club, rating, is_public=True):
    return models.ClubReview.objects.create(
        organization=club.organization, club=club, rating=rating, comment="ok", is_public=is_public
    )


def test_list_filters_orders_and_presents_the_shape(api, club, organization):
    other_club = models.Club.objects.create(organization=organization, name="Annex", slug="annex", timezone="UTC")
    first, _hidden, _elsewhere = review(club, 4), review(club, 2, is_public=False), review(other_club, 5)

    response = api.get(f"/v1/platform/club-reviews?clubId={club.id}&isPublic=true")

    assert response.status_code == 200
    body = response.json()
    assert body["total"] == 1 and body["limit"] == 50 and body["offset"] == 0
    assert body["data"] == [
        {
            "id": first.id,
            "clubId": club.id,
            "rating": 4,
            "comment": "ok",
            "isPublic": True,
            "createdAt": first.created_at.isoformat().replace("+00:00", "Z"),
        }
    ]
    by_rating = api.get("/v1/platform/club-reviews?ordering=-rating").json()["data"]
    assert [r["rating"] for r in by_rating] == [5, 4, 2]


def test_bad_filter_values_are_400_naming_the_parameter(api):
    response = api.get("/v1/platform/club-reviews?clubId=three&isPublic=maybe")
    assert response.status_code == 400
    assert response.json()["details"]["fields"] == {
        "clubId": ["Must be an integer."],
        "isPublic": ["Must be `true` or `false`."],
    }
    assert api.get("/v1/platform/club-reviews?ordering=comment").json()["details"]["fields"] == {
        "ordering": ["Unknown ordering field `comment`. Allowed: createdAt, rating."]
    }


def test_item_and_tenancy(api, club, other_organization, client_for):
    own = review(club, 3)
    foreign_club = models.Club.objects.create(organization=other_organization, name="Rival", slug="rival")
    foreign = review(foreign_club, 1)

    assert api.get(f"/v1/platform/club-reviews/{own.id}").json()["rating"] == 3
    assert api.get(f"/v1/platform/club-reviews/{foreign.id}").status_code == 404
    assert api.get("/v1/platform/club-reviews").json()["total"] == 1
    denied = client_for("classes:read").get("/v1/platform/club-reviews")
    assert denied.status_code == 403 and denied.json()["requiredScope"] == "clubs:read"


def test_a_page_costs_the_same_queries_for_1_or_60_rows(api, club):
    review(club, 1)
    api.get("/v1/platform/club-reviews")  # the key's first use writes last_used_at
    with CaptureQueriesContext(connection) as one:
        api.get("/v1/platform/club-reviews?limit=200")
    for rating in range(60):
        review(club, rating % 5 + 1)
    with CaptureQueriesContext(connection) as many:
        assert len(api.get("/v1/platform/club-reviews?limit=200").json()["data"]) == 61
    assert len(many) == len(one)


def test_the_openapi_document_comes_from_the_declarations():
    schema = SchemaGenerator(patterns=urlpatterns).get_schema(request=None, public=True)
    operation = schema["paths"]["/v1/platform/club-reviews"]["get"]
    parameters = {p["name"]: p["schema"] for p in operation["parameters"]}
    assert parameters["clubId"] == {"type": "integer"}
    assert parameters["isPublic"] == {"type": "boolean"}
    assert set(parameters) >= {"ordering", "limit", "offset"}
    assert operation["x-required-scope"] == "clubs:read"
    assert operation["operationId"] == "club_reviews_list"
    listed = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert listed == {"$ref": "#/components/schemas/PaginatedClubReviewList"}
    component = schema["components"]["schemas"]["ClubReview"]
    assert component["required"] == sorted(ClubReview.__required_keys__)
    assert component["properties"]["createdAt"] == {"type": "string", "format": "date-time"}


class Rated(TypedDict):
    id: int
    clubName: str
    rating: int
    note: NotRequired[str]
    isPublic: bool


class RatedResource(Resource):
    shape = Rated


def test_a_body_keeps_the_shape_order_with_computed_keys_and_copied_columns():
    row = {"id": 1, "club_name": "Centre", "rating": 4, "is_public": True, "note": "kept when the row has it"}
    assert list(RatedResource().body(row, None, rating=5)) == ["id", "clubName", "rating", "note", "isPublic"]
    assert RatedResource().body(row, None, rating=5)["rating"] == 5


def test_a_not_required_key_with_neither_a_value_nor_a_column_is_left_out():
    body = RatedResource().body({"id": 1, "club_name": "Centre", "rating": 4, "is_public": False}, None)
    assert body == {"id": 1, "clubName": "Centre", "rating": 4, "isPublic": False}
    with pytest.raises(KeyError):
        RatedResource().body({"id": 1, "rating": 4, "is_public": False}, None)  # a required key must have its column


class Priced(TypedDict):
    id: int
    name: str
    price: float
    tags: list[str]
    note: str | None


class PricedResource(Resource):
    shape = Priced
    translated = ("name",)


def test_copied_values_follow_the_shape_type_and_translated_keys_the_request_language():
    ctx = PresentContext(organization=Organization(default_language="en"), locale="es")
    row = {"id": 1, "name": "Water", "translations": {"es": {"name": "Agua"}}, "price": Decimal("1.50"), "tags": None}
    body = PricedResource().body({**row, "note": None}, ctx)
    assert body == {"id": 1, "name": "Agua", "price": 1.5, "tags": [], "note": None}
    assert type(body["price"]) is float


def test_a_resource_reads_each_required_keys_own_model_field_and_never_a_not_required_secret():
    assert CLUB_REVIEW.value_columns == ("id", "club_id", "rating", "comment", "is_public", "created_at")
    assert "secret" not in WebhookResource().value_columns  # shown once, by the create and rotate answers only
