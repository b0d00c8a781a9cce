"""Classes: occurrences of one-off and recurring classes (`/v1/platform/classes`)."""

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework.decorators import action
from rest_framework.response import Response

from apps.api.exceptions import ValidationFailed
from apps.api.views import DestroyResourceMixin, ResourceViewSet

from .. import services
from ..choices import EditScope
from ..filters import ClassFilterSet
from ..models import ClassOccurrence
from ..resources import CLASS
from .serializers import CancelSerializer, ClassCreateSerializer, ClassUpdateSerializer, reject_price

LOCALE = OpenApiParameter("locale", str, description="Language of names and descriptions (fallback: default).")
SCOPE = OpenApiParameter(
    "scope", str, enum=EditScope.values, description="`this` (default) or this and every later occurrence."
)
CONFLICT = OpenApiResponse(
    {"$ref": "#/components/schemas/Error"},
    description="SERIES_HAS_ACTIVE_BOOKINGS, CLASS_HAS_ACTIVE_BOOKINGS or INVALID_STATE_TRANSITION",
)


def parse_scope(params) -> str:
    scope = params.get("scope") or EditScope.THIS
    if scope not in EditScope.values:
        raise ValidationFailed({"scope": ["Must be `this` or `all_future`."]})
    return scope


@extend_schema_view(
    list=extend_schema(
        operation_id="classes_list", summary="List classes", parameters=[LOCALE], responses=CLASS.serializer(many=True)
    ),
    retrieve=extend_schema(
        operation_id="classes_get", summary="Get a class", parameters=[LOCALE], responses=CLASS.serializer
    ),
    create=extend_schema(
        operation_id="classes_create",
        summary="Create a class or a recurring series",
        parameters=[LOCALE],
        responses={201: CLASS.serializer},
    ),
    partial_update=extend_schema(
        operation_id="classes_update",
        summary="Update a class (this or all future occurrences), or move where its series ends",
        parameters=[SCOPE, LOCALE],
        responses={200: CLASS.serializer, 409: CONFLICT},
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
        responses={200: CLASS.serializer, 409: CONFLICT},
    ),
)
@extend_schema(tags=["classes"])
class ClassViewSet(DestroyResourceMixin, ResourceViewSet):
    """Class occurrences: one-off classes and the occurrences of recurring series."""

    queryset = ClassOccurrence.objects.all()
    resource = CLASS
    filterset_class = ClassFilterSet
    required_scopes = {
        "list": "classes:read",
        "retrieve": "classes:read",
        "create": "classes:write",
        "partial_update": "classes:write",
        "destroy": "classes:write",
        "cancel": "classes:write",
    }
    write_serializer = ClassCreateSerializer
    update_serializer = ClassUpdateSerializer

    def _present(self, pk, extra=None) -> dict:
        body = self.present(pk)
        if extra:
            body.update(extra)
        return body

    def create(self, request):
        reject_price(request.data)
        data = self.validated(self.write_serializer)
        occurrence, series = services.create_class(self.organization, {"recurrence": None, **data})
        extra = {"series": series.as_dict()} if series else None
        return self.created(self._present(occurrence.pk, extra), occurrence)

    def partial_update(self, request, pk=None):
        occurrence = self.get_object()
        body = request.data
        reject_price(body)
        scope = parse_scope(request.query_params)
        context = {"request": request, "scope": scope}
        serializer = self.update_serializer(occurrence, data=body, partial=True, context=context)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        if "recurrence" in data:
            shown, series = services.move_series_end(self.organization, occurrence, data["recurrence"])
            return Response(self._present(shown.pk, {"series": series.as_dict(with_removed=True)}))
        notify = data.pop("notify_customer", False)
        services.update_class(self.organization, occurrence, data, scope=scope, notify_customer=notify)
        return Response(self._present(occurrence.pk))

    def destroy_object(self, occurrence):
        services.delete_class(self.organization, occurrence, scope=parse_scope(self.request.query_params))

    @action(detail=True, methods=["post"], url_path="cancel")
    def cancel(self, request, pk=None):
        occurrence = self.get_object()
        serializer = CancelSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.cancel_class(
            self.organization,
            occurrence,
            scope=parse_scope(request.query_params),
            reason=serializer.validated_data.get("reason") or None,
            notify_customer=serializer.validated_data.get("notify_customer", False),
        )
        return Response(self._present(occurrence.pk))
