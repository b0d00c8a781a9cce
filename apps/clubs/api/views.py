"""Clubs (read-only), areas, area types, area blocks and availability."""

import datetime as dt
from collections import defaultdict
from zoneinfo import ZoneInfo

from django.db.models import Q
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework.response import Response

from apps.api.exceptions import NotFound, ValidationFailed
from apps.api.filters import apply_ordering, parse_bool, parse_int
from apps.api.filters import date_window as _date_window
from apps.api.pagination import page_body, parse_page_params
from apps.api.schema import crud_schema_view
from apps.api.scopes import crud_scopes
from apps.api.views import PlatformViewSet

from .. import services
from ..models import Area, AreaBlock, AreaType, Club
from ..presenters import club_context, club_rows, present_area, present_area_type, present_block, present_club
from . import serializers as s


def date_window(params, tz):
    """The shared window parser, with an impossible (`2031-13-01`) or out-of-range (`9999-12-31`) date as a 400."""
    try:
        return _date_window(params, tz)
    except (ValueError, OverflowError):
        names = [n for n in ("startDate", "endDate") if params.get(n)]
        raise ValidationFailed({n: ["Must be a valid date (YYYY-MM-DD) or a date-time with an offset."] for n in names})


def text_param(params, name) -> str | None:
    """A free-text query value; a NUL character (which PostgreSQL cannot compare) is a 400, not a 500."""
    raw = params.get(name)
    if raw in (None, ""):
        return None
    if "\x00" in raw:
        raise ValidationFailed({name: ["Must not contain NUL characters."]})
    return raw


def _param(name, type_=OpenApiTypes.STR, description="", required=False, enum=None):
    return OpenApiParameter(name, type_, OpenApiParameter.QUERY, required=required, description=description, enum=enum)


def _sports_q(params, field="sports") -> Q | None:
    raw = text_param(params, "sport")
    if raw is None:
        return None
    q = Q()
    for sport in (v.strip() for v in raw.split(",") if v.strip()):
        q |= Q(**{f"{field}__contains": [sport]})
    return q


ORDERING = _param("ordering", description="`field` or `-field`, comma-separated.")
LOCALE = _param("locale", description="Language code for resolved names; falls back to the default language.")


# --- Clubs ---------------------------------------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(
        operation_id="clubs_list",
        tags=["clubs"],
        summary="List clubs",
        parameters=[
            _param("q", description="Case-insensitive search in name and city."),
            _param("city"),
            _param("sport", description="Comma list; clubs offering any of them."),
            LOCALE,
            _param("ordering", description="`name`, `createdAt` (default `-createdAt`)."),
        ],
        responses=s.ClubSerializer(many=True),
    ),
    retrieve=extend_schema(
        operation_id="clubs_get",
        tags=["clubs"],
        summary="Get a club by slug",
        parameters=[LOCALE],
        responses=s.ClubSerializer,
    ),
)
class ClubViewSet(PlatformViewSet):
    """Clubs are read-only through the API: POST, PATCH and DELETE answer 405."""

    queryset = Club.objects.all()
    lookup_field = "slug"
    lookup_value_regex = r"[^/]+"
    required_scopes = {"list": "clubs:read", "retrieve": "clubs:read"}
    ordering_fields = {"name": "name", "createdAt": "created_at", "id": "id"}

    def _present(self, rows):
        ctx = club_context(rows, self.organization, self.request.query_params.get("locale"))
        return [present_club(row, ctx) for row in rows]

    def list(self, request):
        params = request.query_params
        qs = self.get_queryset()
        q, city = text_param(params, "q"), text_param(params, "city")
        if q:
            qs = qs.filter(Q(name__icontains=q) | Q(city__icontains=q))
        if city:
            qs = qs.filter(city__iexact=city)
        sports = _sports_q(params)
        if sports is not None:
            qs = qs.filter(sports)
        qs = apply_ordering(qs, params, self.ordering_fields, "-createdAt")
        page = self.paginate_queryset(club_rows(qs))
        return self.get_paginated_response(self._present(page))

    def get_object(self):
        if "\x00" in self.kwargs.get("slug", ""):  # no slug holds NUL, and PostgreSQL cannot compare it
            raise NotFound()
        return super().get_object()

    def retrieve(self, request, slug=None):
        rows = list(club_rows(self.get_queryset().filter(slug=slug))) if "\x00" not in slug else []
        if not rows:
            raise NotFound()
        return Response(self._present(rows)[0])


# --- Area types ----------------------------------------------------------------------------------------------


@crud_schema_view(
    "area_types",
    s.AreaTypeSerializer,
    write=s.AreaTypeWriteSerializer,
    tags=["areas"],
    summaries={"list": "List area types"},
    parameters={
        "list": [_param("q", description="Search in name."), _param("ordering", description="`name`, `createdAt`.")]
    },
)
class AreaTypeViewSet(PlatformViewSet):
    queryset = AreaType.objects.all()
    required_scopes = crud_scopes("areas")
    ordering_fields = {"name": "name", "createdAt": "created_at", "id": "id"}

    def list(self, request):
        params = request.query_params
        qs = self.get_queryset()
        q = text_param(params, "q")
        if q:
            qs = qs.filter(name__icontains=q)
        qs = apply_ordering(qs, params, self.ordering_fields, "-createdAt")
        page = self.paginate_queryset(qs)
        return self.get_paginated_response([present_area_type(t) for t in page])

    def retrieve(self, request, pk=None):
        return Response(present_area_type(self.get_object()))

    def create(self, request):
        validated_data = self.validated(s.AreaTypeWriteSerializer)
        area_type = services.create_area_type(self.organization, **validated_data)
        return self.created(present_area_type(area_type), area_type)

    def partial_update(self, request, pk=None):
        area_type = self.get_object()
        validated_data = self.validated(s.AreaTypeWriteSerializer, partial=True)
        area_type = services.update_area_type(area_type, dict(validated_data))
        return Response(present_area_type(area_type))


# --- Areas ---------------------------------------------------------------------------------------------------


@crud_schema_view(
    "areas",
    s.AreaSerializer,
    write=s.AreaCreateSerializer,
    update=s.AreaUpdateSerializer,
    tags=["areas"],
    summaries={"list": "List areas"},
    parameters={
        "list": [
            _param("clubId", OpenApiTypes.INT),
            _param("areaTypeId", OpenApiTypes.INT),
            _param("sport", description="Comma list; areas offering any of them."),
            _param("isActive", OpenApiTypes.BOOL),
            _param("q", description="Search in name."),
            _param("ordering", description="`position` (default), `name`."),
        ]
    },
)
class AreaViewSet(PlatformViewSet):
    """Areas have no DELETE: deactivate with `isActive: false`."""

    queryset = Area.objects.all()
    required_scopes = crud_scopes("areas")
    ordering_fields = {"position": "position", "name": "name", "id": "id"}

    def base_queryset(self):
        # Only what the Area shape reads: the area type's name, not its timestamps.
        return Area.objects.select_related("area_type").only(
            *(f.name for f in Area._meta.concrete_fields), "area_type__id", "area_type__name"
        )

    def list(self, request):
        params = request.query_params
        qs = self.get_queryset()
        club_id = parse_int(params, "clubId")
        if club_id is not None:
            qs = qs.filter(club_id=club_id)
        area_type_id = parse_int(params, "areaTypeId")
        if area_type_id is not None:
            qs = qs.filter(area_type_id=area_type_id)
        is_active = parse_bool(params, "isActive")
        if is_active is not None:
            qs = qs.filter(is_active=is_active)
        sports = _sports_q(params)
        if sports is not None:
            qs = qs.filter(sports)
        q = text_param(params, "q")
        if q:
            qs = qs.filter(name__icontains=q)
        qs = apply_ordering(qs, params, self.ordering_fields, "position")
        page = self.paginate_queryset(qs)
        return self.get_paginated_response([present_area(a) for a in page])

    def retrieve(self, request, pk=None):
        return Response(present_area(self.get_object()))

    def create(self, request):
        data = dict(self.validated(s.AreaCreateSerializer))
        area = services.create_area(self.organization, club=data.pop("club"), name=data.pop("name"), **data)
        return self.created(present_area(area), area)

    def partial_update(self, request, pk=None):
        area = self.get_object()
        validated_data = self.validated(s.AreaUpdateSerializer, partial=True)
        area = services.update_area(area, dict(validated_data))
        return Response(present_area(area))


# --- Area blocks ---------------------------------------------------------------------------------------------


def _window_q(organization, params, club_id) -> Q | None:
    """Blocks overlapping `startDate`..`endDate`; bare dates are whole days on each block's club clock."""
    if params.get("startDate") in (None, "") and params.get("endDate") in (None, ""):
        return None
    clubs = Club.objects.filter(organization=organization)
    if club_id is not None:
        clubs = clubs.filter(id=club_id)
    by_tz = defaultdict(list)
    for cid, tz in clubs.values_list("id", "timezone"):
        by_tz[tz or "UTC"].append(cid)
    if not by_tz:
        by_tz["UTC"] = []
    q = Q(pk__in=[])
    for tz, club_ids in by_tz.items():
        lower, upper, upper_exclusive = date_window(params, ZoneInfo(tz))
        part = Q(club_id__in=club_ids)
        if lower is not None:
            part &= Q(end_time__gt=lower)
        if upper is not None:
            part &= Q(start_time__lt=upper) if upper_exclusive else Q(start_time__lte=upper)
        q |= part
    return q


@crud_schema_view(
    "area_blocks",
    s.AreaBlockSerializer,
    write=s.AreaBlockCreateSerializer,
    update=None,
    tags=["areas"],
    summaries={"list": "List area blocks", "create": "Block an area"},
    parameters={
        "list": [
            _param("clubId", OpenApiTypes.INT),
            _param("areaId", OpenApiTypes.INT),
            _param("startDate", description="Date (club clock) or date-time; blocks overlapping the range."),
            _param("endDate", description="Date (club clock, inclusive) or date-time."),
            _param("ordering", description="`startTime` (default), `endTime`, `createdAt`."),
        ]
    },
    destroy=extend_schema(operation_id="area_blocks_delete", tags=["areas"], summary="Unblock", responses={204: None}),
)
class AreaBlockViewSet(PlatformViewSet):
    queryset = AreaBlock.objects.all()
    required_scopes = crud_scopes("areas", write=("create", "destroy"))
    ordering_fields = {"startTime": "start_time", "endTime": "end_time", "createdAt": "created_at", "id": "id"}

    def list(self, request):
        params = request.query_params
        qs = self.get_queryset()
        club_id = parse_int(params, "clubId")
        if club_id is not None:
            qs = qs.filter(club_id=club_id)
        area_id = parse_int(params, "areaId")
        if area_id is not None:
            qs = qs.filter(area_id=area_id)
        window = _window_q(self.organization, params, club_id)
        if window is not None:
            qs = qs.filter(window)
        qs = apply_ordering(qs, params, self.ordering_fields, "startTime")
        page = self.paginate_queryset(qs)
        return self.get_paginated_response([present_block(b) for b in page])

    def retrieve(self, request, pk=None):
        return Response(present_block(self.get_object()))

    def create(self, request):
        data = self.validated(s.AreaBlockCreateSerializer)
        block = services.create_block(
            self.organization,
            area=data["area"],
            start_time=data["start_time"],
            end_time=data["end_time"],
            reason=data.get("reason") or None,
        )
        return self.created(present_block(block), block)

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
        responses=s.AvailabilityIntervalSerializer(many=True),
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
