"""Class types (CRUD) and progression tracks (read-only). Registered by apps/classes/api/urls.py."""

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema

from apps.api.schema import crud_schema_view
from apps.api.scopes import crud_scopes
from apps.api.views import CreateResourceMixin, DestroyResourceMixin, ResourceViewSet, UpdateResourceMixin

from .. import type_services
from ..filters import ClassTypeFilterSet, ProgressionTrackFilterSet
from ..models import ClassType, ProgressionTrack
from ..resources import CLASS_TYPE, PROGRESSION_TRACK
from .types_serializers import ClassTypeInputSerializer

LOCALE_PARAM = OpenApiParameter(
    "locale", str, description="Language code for name/description; falls back to the organization's default."
)


@crud_schema_view(
    "class_types",
    descriptions={
        "partial_update": "Partial update. `maxPartySize` changes the `maxPartySize` of classes of this type."
    },
    parameters={"list": [LOCALE_PARAM], "retrieve": [LOCALE_PARAM]},
    destroy=extend_schema(
        operation_id="class_types_delete",
        summary="Delete a class type",
        description="409 `RESOURCE_IN_USE` while classes reference the type.",
        responses={204: OpenApiResponse(description="Deleted")},
    ),
)
@extend_schema(tags=["class-types"])
class ClassTypeViewSet(CreateResourceMixin, UpdateResourceMixin, DestroyResourceMixin, ResourceViewSet):
    """A kind of class (Yoga, Padel clinic)."""

    queryset = ClassType.objects.all()
    resource = CLASS_TYPE
    filterset_class = ClassTypeFilterSet
    http_method_names = ["get", "post", "patch", "delete", "head"]
    required_scopes = crud_scopes("classes", write=("create", "partial_update", "destroy"))

    write_serializer = ClassTypeInputSerializer

    def create_object(self, data):
        return type_services.create_class_type(self.organization, data)

    def update_object(self, class_type, data):
        type_services.update_class_type(class_type, data)

    def destroy_object(self, instance):
        type_services.delete_class_type(instance)


@crud_schema_view(
    "progression_tracks",
    parameters={"list": [LOCALE_PARAM], "retrieve": [LOCALE_PARAM]},
)
@extend_schema(tags=["progression-tracks"])
class ProgressionTrackViewSet(ResourceViewSet):
    """A ladder of levels across class types. Read-only through the API."""

    queryset = ProgressionTrack.objects.all()
    resource = PROGRESSION_TRACK
    filterset_class = ProgressionTrackFilterSet
    http_method_names = ["get", "head"]
    required_scopes = crud_scopes("classes", write=())
