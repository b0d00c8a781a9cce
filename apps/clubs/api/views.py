"""Clubs (read-only), areas and area types. Area blocks and availability are in `apps.occupancy.api.views`."""

from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view

from apps.api.schema import crud_schema_view
from apps.api.scopes import crud_scopes
from apps.api.views import CreateResourceMixin, ResourceViewSet, UpdateResourceMixin, Writes

from .. import services
from ..filters import AreaFilterSet, AreaTypeFilterSet, ClubFilterSet
from ..models import Area, AreaType, Club
from ..resources import AREA, AREA_TYPE, CLUB
from . import serializers as s

LOCALE = OpenApiParameter(
    "locale", str, description="Language code for resolved names; falls back to the default language."
)


# --- Clubs ---------------------------------------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(operation_id="clubs_list", tags=["clubs"], summary="List clubs", parameters=[LOCALE]),
    retrieve=extend_schema(operation_id="clubs_get", tags=["clubs"], summary="Get a club by slug", parameters=[LOCALE]),
)
class ClubViewSet(ResourceViewSet):
    """Clubs are read-only through the API: POST, PATCH and DELETE answer 405."""

    queryset = Club.objects.all()
    resource = CLUB
    filterset_class = ClubFilterSet
    lookup_field = "slug"
    lookup_value_regex = r"[^/]+"
    required_scopes = {"list": "clubs:read", "retrieve": "clubs:read"}


# --- Area types ----------------------------------------------------------------------------------------------


@crud_schema_view(
    "area_types",
    tags=["areas"],
)
class AreaTypeViewSet(CreateResourceMixin, UpdateResourceMixin, ResourceViewSet):
    queryset = AreaType.objects.all()
    resource = AREA_TYPE
    filterset_class = AreaTypeFilterSet
    required_scopes = crud_scopes("areas")

    write_serializer = s.AreaTypeWriteSerializer
    writes = Writes(create=services.create_area_type, update=services.update_area_type)


# --- Areas ---------------------------------------------------------------------------------------------------


@crud_schema_view(
    "areas",
    tags=["areas"],
    summaries={
        "partial_update": "Update an area (deactivate with isActive: false)",
    },
)
class AreaViewSet(CreateResourceMixin, UpdateResourceMixin, ResourceViewSet):
    """Areas have no DELETE: deactivate with `isActive: false`."""

    queryset = Area.objects.all()
    resource = AREA
    filterset_class = AreaFilterSet
    required_scopes = crud_scopes("areas")

    write_serializer = s.AreaCreateSerializer
    update_serializer = s.AreaUpdateSerializer
    writes = Writes(create=services.create_area, update=services.update_area)
