"""Classes: occurrences of one-off and recurring classes (`/v1/platform/classes`)."""

from django.db.models import Exists, OuterRef
from django.db.models.functions import Lower
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework.decorators import action
from rest_framework.response import Response

from apps.api.exceptions import NotFound, ValidationFailed
from apps.api.filters import apply_club_clock_window, apply_ordering, parse_enum_list, parse_int
from apps.api.views import PlatformViewSet

from .. import services
from ..models import ClassOccurrence
from ..presenters import ClassRows, load_class, make_context, present_rows
from .serializers import (
    VISIBILITIES,
    CancelSerializer,
    ClassCreateDoc,
    ClassDoc,
    ClassUpdateDoc,
    ClassUpdateSerializer,
    ClassWriteSerializer,
    parse_create_recurrence,
    parse_end_move,
    reject_price,
    require_object,
)

# Names sort case-insensitively (the database collation may be byte order).
ORDERING = {"startTime": "start_time", "name": "name_sort", "createdAt": "created_at"}

LOCALE = OpenApiParameter("locale", str, description="Language of names and descriptions (fallback: default).")
SCOPE = OpenApiParameter(
    "scope", str, enum=["this", "all_future"], description="`this` (default) or this and every later occurrence."
)
CONFLICT = OpenApiResponse(
    {"$ref": "#/components/schemas/Error"},
    description="SERIES_HAS_ACTIVE_BOOKINGS, CLASS_HAS_ACTIVE_BOOKINGS or INVALID_STATE_TRANSITION",
)
LIST_PARAMS = [
    OpenApiParameter("startDate", str, description="Date (club clock) or date-time; on startTime, inclusive."),
    OpenApiParameter("endDate", str, description="Date (club clock) or date-time; on startTime, inclusive."),
    OpenApiParameter("clubId", int),
    OpenApiParameter("areaId", int),
    OpenApiParameter("classTypeId", int),
    OpenApiParameter("instructorId", int),
    OpenApiParameter("recurrenceId", int),
    OpenApiParameter("status", str, description="Comma list of `active`, `cancelled`."),
    OpenApiParameter("visibility", str, description="Comma list of `Public`, `Member_only`, `Private`."),
    OpenApiParameter("timeStatus", str, description="Comma list of `past`, `upcoming`."),
    OpenApiParameter("q", str, description="Case-insensitive substring of the name."),
    OpenApiParameter("ordering", str, description="`startTime` (default), `name`, `createdAt`; `-` for descending."),
    LOCALE,
]


def parse_scope(params) -> str:
    scope = params.get("scope") or services.THIS
    if scope not in services.SCOPES:
        raise ValidationFailed({"scope": ["Must be `this` or `all_future`."]})
    return scope


@extend_schema_view(
    list=extend_schema(
        operation_id="classes_list", summary="List classes", parameters=LIST_PARAMS, responses=ClassDoc(many=True)
    ),
    retrieve=extend_schema(operation_id="classes_get", summary="Get a class", parameters=[LOCALE], responses=ClassDoc),
    create=extend_schema(
        operation_id="classes_create",
        summary="Create a class or a recurring series",
        request=ClassCreateDoc,
        parameters=[LOCALE],
        responses={201: ClassDoc},
    ),
    partial_update=extend_schema(
        operation_id="classes_update",
        summary="Update a class (this or all future occurrences), or move where its series ends",
        request=ClassUpdateDoc,
        parameters=[SCOPE, LOCALE],
        responses={200: ClassDoc, 409: CONFLICT},
    ),
    destroy=extend_schema(
        operation_id="classes_delete",
        summary="Delete a class (this or all future occurrences)",
        parameters=[SCOPE],
        responses={204: OpenApiResponse(description="Deleted"), 409: CONFLICT},
    ),
    cancel=extend_schema(
        operation_id="classes_cancel",
        summary="Cancel a class (this or all future occurrences); bookings are kept",
        request=CancelSerializer,
        parameters=[SCOPE, LOCALE],
        responses={200: ClassDoc, 409: CONFLICT},
    ),
)
class ClassViewSet(PlatformViewSet):
    """Class occurrences. Reads are presented from one annotated queryset; writes go through `services`."""

    queryset = ClassOccurrence.objects.all()
    filter_backends = []
    required_scopes = {
        "list": "classes:read",
        "retrieve": "classes:read",
        "create": "classes:write",
        "partial_update": "classes:write",
        "destroy": "classes:write",
        "cancel": "classes:write",
    }

    def base_queryset(self):
        return ClassOccurrence.objects.all()

    def _locale(self):
        return self.request.query_params.get("locale") or None

    def _present(self, pk, extra=None) -> dict:
        body = load_class(self.organization, pk, self._locale())
        if extra:
            body.update(extra)
        return body

    def list(self, request):
        params = request.query_params
        organization = self.organization
        queryset = self.get_queryset()
        club_id = parse_int(params, "clubId")
        if club_id is not None:
            queryset = queryset.filter(club_id=club_id)
        for name, field in (
            ("areaId", "area_id"),
            ("classTypeId", "class_type_id"),
            ("recurrenceId", "series_id"),
        ):
            value = parse_int(params, name)
            if value is not None:
                queryset = queryset.filter(**{field: value})
        instructor_id = parse_int(params, "instructorId")
        statuses = parse_enum_list(params, "status", ("active", "cancelled"))
        if statuses:
            queryset = queryset.filter(status__in=statuses)
        visibilities = parse_enum_list(params, "visibility", VISIBILITIES)
        if visibilities:
            queryset = queryset.filter(visibility__in=visibilities)
        time_statuses = parse_enum_list(params, "timeStatus", ("past", "upcoming"))
        if time_statuses and len(set(time_statuses)) == 1:
            now = timezone.now()
            lookup = "end_time__lt" if time_statuses[0] == "past" else "end_time__gte"
            queryset = queryset.filter(**{lookup: now})
        q = (params.get("q") or "").strip()
        if q:
            queryset = queryset.filter(name__icontains=q)
        if instructor_id is not None:
            through = ClassOccurrence.instructors.through.objects
            queryset = queryset.filter(
                Exists(through.filter(classoccurrence_id=OuterRef("pk"), instructor_id=instructor_id))
            )
        queryset = apply_club_clock_window(queryset, params, organization.timezone, "start_time")
        queryset = apply_ordering(queryset.annotate(name_sort=Lower("name")), params, ORDERING, "startTime")
        page = self.paginate_queryset(ClassRows(queryset))
        return self.get_paginated_response(present_rows(page, make_context(organization, self._locale())))

    def retrieve(self, request, pk=None):
        rows = ClassRows(self.get_queryset().filter(pk=pk)).all()
        rows = present_rows(rows, make_context(self.organization, self._locale()))
        if not rows:
            raise NotFound()
        return Response(rows[0])

    def create(self, request):
        body = require_object(request.data)
        reject_price(body)
        recurrence, recurrence_errors = parse_create_recurrence(body.get("recurrence"))
        serializer = ClassWriteSerializer(data=body, context={"request": request})
        errors = {} if serializer.is_valid() else dict(serializer.errors)
        errors.update(recurrence_errors)
        data = serializer.validated_data if not errors else {}
        if recurrence is not None and not errors and recurrence.get("ends_date") is not None:
            if recurrence["ends_date"] < data["start_time"]:
                errors["recurrence.endDate"] = ["Must not be before startTime."]
        if errors:
            raise ValidationFailed(_flatten(errors))
        occurrence, series = services.create_class(self.organization, {**data, "recurrence": recurrence})
        extra = {"series": series.as_dict()} if series else None
        return self.created(self._present(occurrence.pk, extra), occurrence)

    def partial_update(self, request, pk=None):
        occurrence = self.get_object()
        body = require_object(request.data)
        reject_price(body)
        scope = parse_scope(request.query_params)
        if body.get("recurrence") is not None:
            ends = parse_end_move(body["recurrence"], body, scope=scope, is_series=occurrence.series_id is not None)
            shown, series = services.move_series_end(self.organization, occurrence, ends)
            return Response(self._present(shown.pk, {"series": series.as_dict(with_removed=True)}))
        serializer = ClassUpdateSerializer(data=body, partial=True, context={"request": request})
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        notify = data.pop("notify_customer", False)
        data = {k: v for k, v in data.items() if k != "notify_customer"}
        services.update_class(self.organization, occurrence, data, scope=scope, notify_customer=notify)
        return Response(self._present(occurrence.pk))

    def destroy(self, request, pk=None):
        occurrence = self.get_object()
        services.delete_class(self.organization, occurrence, scope=parse_scope(request.query_params))
        return Response(status=204)

    @action(detail=True, methods=["post"], url_path="cancel")
    def cancel(self, request, pk=None):
        occurrence = self.get_object()
        body = require_object(request.data)
        serializer = CancelSerializer(data=body)
        serializer.is_valid(raise_exception=True)
        services.cancel_class(
            self.organization,
            occurrence,
            scope=parse_scope(request.query_params),
            reason=serializer.validated_data.get("reason") or None,
            notify_customer=serializer.validated_data.get("notify_customer", False),
        )
        return Response(self._present(occurrence.pk))


def _flatten(errors: dict) -> dict:
    flat = {}
    for key, value in errors.items():
        if isinstance(value, dict):
            for sub, messages in _flatten(value).items():
                flat[f"{key}.{sub}"] = messages
        else:
            flat[key] = [str(m) for m in value] if isinstance(value, list) else [str(value)]
    return flat
