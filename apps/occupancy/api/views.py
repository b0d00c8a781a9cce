"""Area blocks and availability: the endpoints about what occupies an area's time (`/area-blocks`,
`/availability`). They sit above clubs, bookings and classes because both read bookings and classes."""

import datetime as dt

from django.utils import timezone
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework.response import Response

from apps.api.exceptions import ValidationFailed
from apps.api.filters import parse_int
from apps.api.pagination import page_body, parse_page_params
from apps.api.resources import shape_serializer
from apps.api.schema import crud_schema_view
from apps.api.scopes import crud_scopes
from apps.api.views import CreateResourceMixin, DestroyResourceMixin, PlatformViewSet, ResourceViewSet, Writes
from apps.clubs import services
from apps.clubs.models import Area, Club
from apps.kernel import clock

from .. import availability
from .. import services as blocks
from ..filters import AreaBlockFilterSet, AvailabilityFilterSet, date_window
from ..models import AreaBlock
from ..resources import AREA_BLOCK, AvailabilityInterval
from . import serializers as s

# --- Area blocks ---------------------------------------------------------------------------------------------


@crud_schema_view(
    "area_blocks",
    tags=["areas"],
    summaries={"create": "Block an area"},
    destroy=extend_schema(operation_id="area_blocks_delete", tags=["areas"], summary="Unblock", responses={204: None}),
)
class AreaBlockViewSet(CreateResourceMixin, DestroyResourceMixin, ResourceViewSet):
    queryset = AreaBlock.objects.all()
    resource = AREA_BLOCK
    filterset_class = AreaBlockFilterSet
    required_scopes = crud_scopes("areas", write=("create", "destroy"))
    write_serializer = s.AreaBlockCreateSerializer
    writes = Writes(create=blocks.create_block, delete=blocks.delete_block)


# --- Availability --------------------------------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(
        operation_id="availability_list",
        tags=["areas"],
        summary="Free intervals per area within opening hours",
        responses=shape_serializer(AvailabilityInterval)(many=True),
    )
)
class AvailabilityViewSet(PlatformViewSet):
    """Computed free time; a page of `{clubId, areaId, areaName, startTime, endTime}`."""

    queryset = Area.objects.all()
    filterset_class = AvailabilityFilterSet
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
        tz = clock.zone_of(club)

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
        if days.days + 1 > availability.MAX_AVAILABILITY_DAYS:
            raise ValidationFailed({"endDate": ["The range may span at most 14 days."]})

        min_minutes = parse_int(params, "minDurationMinutes")
        if min_minutes is not None and not 1 <= min_minutes <= availability.MAX_AVAILABILITY_MINUTES:
            raise ValidationFailed(
                {"minDurationMinutes": [f"Must be between 1 and {availability.MAX_AVAILABILITY_MINUTES} (14 days)."]}
            )

        areas = self.filter_queryset(Area.objects.filter(organization=self.organization, club=club, is_active=True))
        areas = list(areas.only("id", "name", "position").order_by("position", "id"))

        rows = availability.free_intervals(
            club,
            areas,
            lower,
            upper,
            min_duration=dt.timedelta(minutes=min_minutes) if min_minutes else None,
            not_before=availability.next_whole_minute(timezone.now()),
        )
        limit, offset = parse_page_params(params)
        return Response(page_body(rows[offset : offset + limit], len(rows), limit, offset))
