"""Class types (CRUD) and progression tracks (read-only). Registered by apps/classes/api/urls.py."""

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.response import Response

from apps.api.exceptions import NotFound
from apps.api.fastread import ValuesPage
from apps.api.filters import apply_ordering, parse_bool, parse_int
from apps.api.schema import crud_schema_view
from apps.api.scopes import crud_scopes
from apps.api.views import PlatformViewSet

from .. import type_services
from ..models import ClassType, ProgressionTrack
from ..type_presenters import present_class_type, present_track_rows, presenter_context, track_values
from .types_serializers import ClassTypeInputSerializer, ClassTypeSchema, ProgressionTrackSchema

LOCALE_PARAM = OpenApiParameter(
    "locale", str, description="Language code for name/description; falls back to the organization's default."
)
ORDERING_PARAM = OpenApiParameter("ordering", str, description="`name`, `createdAt`, `updatedAt`; `-` for descending.")
ORDERING = {"name": "name", "createdAt": "created_at", "updatedAt": "updated_at", "id": "id"}


@crud_schema_view(
    "class_types",
    ClassTypeSchema,
    write=ClassTypeInputSerializer,
    update=ClassTypeInputSerializer(partial=True),
    summaries={
        "list": "List class types",
        "retrieve": "Get a class type",
        "create": "Create a class type",
        "partial_update": "Update a class type",
    },
    descriptions={
        "partial_update": "Partial update. `maxPartySize` changes the `maxPartySize` of classes of this type."
    },
    parameters={
        "list": [
            LOCALE_PARAM,
            ORDERING_PARAM,
            OpenApiParameter("isActive", bool),
            OpenApiParameter("q", str, description="Case-insensitive search in the name."),
        ],
        "retrieve": [LOCALE_PARAM],
    },
    destroy=extend_schema(
        operation_id="class_types_delete",
        summary="Delete a class type",
        description="409 `RESOURCE_IN_USE` while classes reference the type.",
        responses={204: OpenApiResponse(description="Deleted")},
    ),
)
@extend_schema(tags=["class-types"])
class ClassTypeViewSet(PlatformViewSet):
    """A kind of class (Yoga, Padel clinic)."""

    queryset = ClassType.objects.all()
    http_method_names = ["get", "post", "patch", "delete", "head"]
    required_scopes = crud_scopes("classes", write=("create", "partial_update", "destroy"))

    def list(self, request):
        params = request.query_params
        queryset = self.get_queryset()
        is_active = parse_bool(params, "isActive")
        if is_active is not None:
            queryset = queryset.filter(is_active=is_active)
        if params.get("q"):
            queryset = queryset.filter(name__icontains=params["q"])
        queryset = apply_ordering(queryset, params, ORDERING, "-createdAt")
        page = self.paginate_queryset(queryset)
        ctx = presenter_context(request)
        return self.get_paginated_response([present_class_type(o, ctx) for o in page])

    def retrieve(self, request, pk=None):
        return Response(present_class_type(self.get_object(), presenter_context(request)))

    def create(self, request):
        validated_data = self.validated(ClassTypeInputSerializer)
        class_type = type_services.create_class_type(self.organization, validated_data)
        return self.created(present_class_type(class_type, presenter_context(request)), class_type)

    def partial_update(self, request, pk=None):
        class_type = self.get_object()
        validated_data = self.validated(ClassTypeInputSerializer, partial=True)
        class_type = type_services.update_class_type(class_type, validated_data)
        return Response(present_class_type(class_type, presenter_context(request)))

    def destroy(self, request, pk=None):
        type_services.delete_class_type(self.get_object())
        return Response(status=204)


@crud_schema_view(
    "progression_tracks",
    ProgressionTrackSchema,
    summaries={"list": "List progression tracks", "retrieve": "Get a progression track"},
    parameters={
        "list": [LOCALE_PARAM, OpenApiParameter("classTypeId", int, description="Tracks that include this type.")],
        "retrieve": [LOCALE_PARAM],
    },
)
@extend_schema(tags=["progression-tracks"])
class ProgressionTrackViewSet(PlatformViewSet):
    """A ladder of levels across class types. Read-only through the API."""

    queryset = ProgressionTrack.objects.all()
    http_method_names = ["get", "head"]
    required_scopes = crud_scopes("classes", write=())

    def list(self, request):
        queryset = self.get_queryset()
        class_type_id = parse_int(request.query_params, "classTypeId")
        if class_type_id is not None:
            queryset = queryset.filter(class_types__id=class_type_id)
        queryset = queryset.order_by("-created_at", "-id")
        page = self.paginate_queryset(ValuesPage(queryset, track_values))
        return self.get_paginated_response(present_track_rows(page, presenter_context(request)))

    def retrieve(self, request, pk=None):
        rows = ValuesPage(self.get_queryset().filter(pk=pk), track_values).all()
        if not rows:
            raise NotFound()
        return Response(present_track_rows(rows, presenter_context(request))[0])
