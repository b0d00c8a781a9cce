"""Clubs (read-only), areas, area types, area blocks and availability."""

import datetime as dt

from django.db.models import Q
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework.response import Response

from apps.api.exceptions import NotFound, ValidationFailed
from apps.api.filters import parse_int
from apps.api.pagination import page_body, parse_page_params
from apps.api.resources import shape_serializer
from apps.api.schema import crud_schema_view
from apps.api.scopes import crud_scopes
from apps.api.views import CreateResourceMixin, PlatformViewSet, ResourceViewSet, UpdateResourceMixin

from .. import services
from ..filters import AreaBlockFilterSet, AreaFilterSet, AreaTypeFilterSet, ClubFilterSet, date_window
from ..models import Area, AreaBlock, AreaType, Club
from ..resources import AREA, AREA_BLOCK, AREA_TYPE, CLUB, AvailabilityInterval
from . import serializers as s


def _param(name, type_=OpenApiTypes.STR, description="", required=False, enum=None):
    return OpenApiParameter(name, type_, OpenApiParameter.QUERY, required=required, description=description, enum=enum)


def _sports_q(params, field="sports") -> Q | None:
    raw = params.get("sport")
    if raw in (None, ""):
        return None
    q = Q()
    for sport in (v.strip() for v in raw.split(",") if v.strip()):
        q |= Q(**{f"{field}__contains": [sport]})
    return q


LOCALE = _param("locale", description="Language code for resolved names; falls back to the default language.")


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

    def get_object(self):
        if "\x00" in self.kwargs.get("slug", ""):  # no slug holds NUL, and PostgreSQL cannot compare it
            raise NotFound()
        return super().get_object()


# --- Area types ----------------------------------------------------------------------------------------------


@crud_schema_view(
    "area_types",
    write=s.AreaTypeWriteSerializer,
    tags=["areas"],
    summaries={
        "list": "List area types",
        "create": "Create an area type",
        "retrieve": "Get an area type",
        "partial_update": "Update an area type",
    },
)
class AreaTypeViewSet(CreateResourceMixin, UpdateResourceMixin, ResourceViewSet):
    queryset = AreaType.objects.all()
    resource = AREA_TYPE
    filterset_class = AreaTypeFilterSet
    required_scopes = crud_scopes("areas")

    write_serializer = s.AreaTypeWriteSerializer

    def perform_create(self, data):
        return services.create_area_type(self.organization, **data)

    def perform_update(self, area_type, data):
        services.update_area_type(area_type, dict(data))


# --- Areas ---------------------------------------------------------------------------------------------------


@crud_schema_view(
    "areas",
    write=s.AreaCreateSerializer,
    update=s.AreaUpdateSerializer,
    tags=["areas"],
    summaries={
        "list": "List areas",
        "create": "Create an area",
        "retrieve": "Get an area",
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

    def perform_create(self, data):
        data = dict(data)
        return services.create_area(self.organization, club=data.pop("club"), name=data.pop("name"), **data)

    def perform_update(self, area, data):
        services.update_area(area, dict(data))


# --- Area blocks ---------------------------------------------------------------------------------------------


@crud_schema_view(
    "area_blocks",
    write=s.AreaBlockCreateSerializer,
    update=None,
    tags=["areas"],
    summaries={"list": "List area blocks", "create": "Block an area", "retrieve": "Get an area block"},
    destroy=extend_schema(operation_id="area_blocks_delete", tags=["areas"], summary="Unblock", responses={204: None}),
)
class AreaBlockViewSet(ResourceViewSet):
    queryset = AreaBlock.objects.all()
    resource = AREA_BLOCK
    filterset_class = AreaBlockFilterSet
    required_scopes = crud_scopes("areas", write=("create", "destroy"))

    def create(self, request):
        data = self.validated(s.AreaBlockCreateSerializer)
        block = services.create_block(
            self.organization,
            area=data["area"],
            start_time=data["start_time"],
            end_time=data["end_time"],
            reason=data.get("reason") or None,
        )
        return self.created(self.present(block.pk), block)

    def destroy(self, request, pk=None):
        services.delete_block(self.get_object())
        return Response(status=204)


# --- Availability --------------------------------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(
        operation_id="availability_list",
        tags=["areas"],
        summary="Free intervals per area within opening hours",
        parameters=[
            _param("clubId", OpenApiTypes.INT, required=True),
            _param("startDate", OpenApiTypes.DATE, required=True, description="First day, on the club's clock."),
            _param(
                "endDate", OpenApiTypes.DATE, description="Last day (inclusive); defaults to `startDate`; ≤ 14 days."
            ),
            _param("areaId", OpenApiTypes.INT),
            _param("sport", description="Comma list; areas offering any of them."),
            _param("minDurationMinutes", OpenApiTypes.INT),
        ],
        responses=shape_serializer(AvailabilityInterval)(many=True),
    )
)
class AvailabilityViewSet(PlatformViewSet):
    """Computed free time; a page of `{clubId, areaId, areaName, startTime, endTime}`."""

    queryset = Area.objects.all()
    required_scopes = {"list": "areas:read"}

    def list(self, request):
        params = request.query_params
        parse_page_params(params)  # bad paging values are a 400 before anything is computed
        errors = {}
        club_id = parse_int(params, "clubId")
        if club_id is None:
            errors["clubId"] = ["This parameter is required."]
        if params.get("startDate") in (None, ""):
            errors["startDate"] = ["This parameter is required."]
        if errors:
            raise ValidationFailed(errors)
        club = Club.objects.filter(organization=self.organization, id=club_id).first()
        if club is None:
            raise ValidationFailed({"clubId": [f"No club with id {club_id} exists in this organization."]})
        tz = services.club_tz(club)

        start_raw, end_raw = params["startDate"], params.get("endDate") or ""
        lower = date_window({"startDate": start_raw}, tz)[0]
        services.check_instant_range("startDate", lower)
        if end_raw:
            services.check_instant_range("endDate", date_window({"endDate": end_raw}, tz)[1])
        elif len(start_raw) == 10:
            end_raw = start_raw
        else:  # a start instant runs to the end of that club-local day
            end_raw = lower.astimezone(tz).date().isoformat()
        lower, upper, _ = date_window({"startDate": start_raw, "endDate": end_raw}, tz)  # inclusive end adds nothing
        days = (upper - dt.timedelta(microseconds=1)).astimezone(tz).date() - lower.astimezone(tz).date()
        if days.days + 1 > services.MAX_AVAILABILITY_DAYS:
            raise ValidationFailed({"endDate": ["The range may span at most 14 days."]})

        min_minutes = parse_int(params, "minDurationMinutes")
        if min_minutes is not None and not 1 <= min_minutes <= services.MAX_AVAILABILITY_MINUTES:
            raise ValidationFailed(
                {"minDurationMinutes": [f"Must be between 1 and {services.MAX_AVAILABILITY_MINUTES} (14 days)."]}
            )

        areas = Area.objects.filter(organization=self.organization, club=club, is_active=True)
        area_id = parse_int(params, "areaId")
        if area_id is not None:
            areas = areas.filter(id=area_id)
        sports = _sports_q(params)
        if sports is not None:
            areas = areas.filter(sports)
        areas = list(areas.only("id", "name", "position").order_by("position", "id"))

        rows = services.free_intervals(
            club,
            areas,
            lower,
            upper,
            min_duration=dt.timedelta(minutes=min_minutes) if min_minutes else None,
            not_before=services.next_whole_minute(timezone.now()),
        )
        limit, offset = parse_page_params(params)
        return Response(page_body(rows[offset : offset + limit], len(rows), limit, offset))
