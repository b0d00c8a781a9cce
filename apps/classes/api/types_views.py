"""Class types (CRUD) and progression tracks (read-only). Registered by apps/classes/api/urls.py."""

from drf_spectacular.utils import OpenApiParameter

from apps.api.schema import crud_schema_view
from apps.api.scopes import crud_scopes
from apps.api.views import CreateResourceMixin, DestroyResourceMixin, ResourceViewSet, UpdateResourceMixin, Writes

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
    tags=["class-types"],
    descriptions={
        "partial_update": "Partial update. `maxPartySize` changes the `maxPartySize` of classes of this type.",
        "destroy": "409 `RESOURCE_IN_USE` while classes reference the type.",
    },
    parameters={"list": [LOCALE_PARAM], "retrieve": [LOCALE_PARAM]},
)
class ClassTypeViewSet(CreateResourceMixin, UpdateResourceMixin, DestroyResourceMixin, ResourceViewSet):
    """A kind of class (Yoga, Padel clinic)."""

    queryset = ClassType.objects.all()
    resource = CLASS_TYPE
    filterset_class = ClassTypeFilterSet
    required_scopes = crud_scopes("classes", write=("create", "partial_update", "destroy"))

    write_serializer = ClassTypeInputSerializer

    writes = Writes(
        create=type_services.create_class_type,
        update=type_services.update_class_type,
        delete=type_services.delete_class_type,
    )


@crud_schema_view(
    "progression_tracks",
    tags=["progression-tracks"],
    parameters={"list": [LOCALE_PARAM], "retrieve": [LOCALE_PARAM]},
)
class ProgressionTrackViewSet(ResourceViewSet):
    """A ladder of levels across class types. Read-only through the API."""

    queryset = ProgressionTrack.objects.all()
    resource = PROGRESSION_TRACK
    filterset_class = ProgressionTrackFilterSet
    required_scopes = crud_scopes("classes", write=())
