"""Contacts, pipeline stages and contact sources (API.md §5.7)."""

from django.db.models import Q, Value
from django.db.models.functions import Concat
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework.decorators import action
from rest_framework.response import Response

from apps.api.filters import apply_ordering, apply_window, date_window, parse_enum_list, parse_int
from apps.api.schema import crud_schema_view
from apps.api.scopes import crud_scopes
from apps.api.views import PlatformViewSet

from .. import services
from ..models import Contact, ContactSource, PipelineStage
from ..presenters import contact_row, contact_values, present_contact, present_contact_source, present_pipeline_stage
from .serializers import (
    ArchiveSerializer,
    ContactSchema,
    ContactSourceSchema,
    ContactWriteSerializer,
    PipelineStageSchema,
)

ID_PARAM = OpenApiParameter("id", int, OpenApiParameter.PATH)
CONTACT_ORDERING = {"createdAt": "created_at", "lastName": "last_name", "firstName": "first_name"}
CONTACT_FILTERS = [
    OpenApiParameter("q", str, description="Case-insensitive search over name, e-mail and phone."),
    OpenApiParameter("email", str, description="Exact e-mail (case-insensitive)."),
    OpenApiParameter("status", str, description="Comma list of `active`, `archived`; default `active`."),
    OpenApiParameter("pipelineStageId", int),
    OpenApiParameter("sourceId", int),
    OpenApiParameter("tag", str),
    OpenApiParameter("startDate", str, description="On createdAt; a bare date is a whole UTC day."),
    OpenApiParameter("endDate", str, description="On createdAt, inclusive."),
    OpenApiParameter("ordering", str, description="`-createdAt` (default), `lastName`, `firstName`."),
]


@crud_schema_view(
    "contacts",
    ContactSchema,
    write=ContactWriteSerializer,
    update=ContactWriteSerializer(partial=True),
    tags=["contacts"],
    parameters={"list": CONTACT_FILTERS, "retrieve": [ID_PARAM], "partial_update": [ID_PARAM]},
    archive=extend_schema(
        operation_id="contacts_archive",
        parameters=[ID_PARAM],
        request=ArchiveSerializer,
        responses=ContactSchema,
        tags=["contacts"],
    ),
    restore=extend_schema(
        operation_id="contacts_restore", parameters=[ID_PARAM], request=None, responses=ContactSchema, tags=["contacts"]
    ),
)
class ContactViewSet(PlatformViewSet):
    """People known to the organization. Archive/restore need `contacts:delete`; there is no hard delete."""

    queryset = Contact.objects.all()
    serializer_class = ContactWriteSerializer
    required_scopes = crud_scopes("contacts", archive="contacts:delete", restore="contacts:delete")

    def base_queryset(self):
        return Contact.objects.all()

    def list(self, request):
        params = request.query_params
        qs = self.get_queryset()
        statuses = parse_enum_list(params, "status", [Contact.ACTIVE, Contact.ARCHIVED]) or [Contact.ACTIVE]
        qs = qs.filter(status__in=statuses)
        q = (params.get("q") or "").strip()
        if q:
            qs = qs.annotate(full_name=Concat("first_name", Value(" "), "last_name")).filter(
                Q(full_name__icontains=q)
                | Q(first_name__icontains=q)
                | Q(last_name__icontains=q)
                | Q(email__icontains=q)
                | Q(phone__icontains=q)
            )
        if params.get("email"):
            qs = qs.filter(email__iexact=params["email"].strip())
        stage_id = parse_int(params, "pipelineStageId")
        if stage_id is not None:
            qs = qs.filter(pipeline_stage_id=stage_id)
        source_id = parse_int(params, "sourceId")
        if source_id is not None:
            qs = qs.filter(source_id=source_id)
        if params.get("tag"):
            qs = qs.filter(tags__contains=[params["tag"]])
        qs = apply_window(qs, "created_at", date_window(params))
        qs = apply_ordering(qs, params, CONTACT_ORDERING, "-createdAt")
        page = self.paginate_queryset(contact_values(qs))
        return self.get_paginated_response([present_contact(row) for row in page])

    def retrieve(self, request, pk=None):
        return Response(present_contact(contact_row(self.get_queryset().filter(pk=pk))))

    def _reload(self, contact):
        return contact_row(self.get_queryset().filter(pk=contact.pk))

    def create(self, request):
        validated_data = self.validated(ContactWriteSerializer)
        contact = services.create_contact(self.organization, **validated_data)
        return self.created(present_contact(self._reload(contact)), contact)

    def partial_update(self, request, pk=None):
        contact = self.get_object()
        validated_data = self.validated(ContactWriteSerializer, partial=True)
        contact = services.update_contact(contact, **validated_data)
        return Response(present_contact(self._reload(contact)))

    @action(detail=True, methods=["post"], url_path="archive")
    def archive(self, request, pk=None):
        contact = self.get_object()
        serializer = ArchiveSerializer(data=request.data or {})
        serializer.is_valid(raise_exception=True)
        contact = services.archive_contact(contact, reason=serializer.validated_data.get("reason") or None)
        return Response(present_contact(self._reload(contact)))

    @action(detail=True, methods=["post"], url_path="restore")
    def restore(self, request, pk=None):
        contact = services.restore_contact(self.get_object())
        return Response(present_contact(self._reload(contact)))


@extend_schema_view(
    list=extend_schema(
        operation_id="pipeline_stages_list", responses=PipelineStageSchema(many=True), tags=["contacts"]
    ),
)
class PipelineStageViewSet(PlatformViewSet):
    """Sales pipeline stages, ordered by position. Read-only."""

    queryset = PipelineStage.objects.all()
    required_scopes = {"list": "contacts:read"}

    def list(self, request):
        page = self.paginate_queryset(self.get_queryset().order_by("position", "id"))
        return self.get_paginated_response([present_pipeline_stage(s) for s in page])


@extend_schema_view(
    list=extend_schema(
        operation_id="contact_sources_list", responses=ContactSourceSchema(many=True), tags=["contacts"]
    ),
)
class ContactSourceViewSet(PlatformViewSet):
    """Where contacts come from. Read-only."""

    queryset = ContactSource.objects.all()
    required_scopes = {"list": "contacts:read"}

    def list(self, request):
        page = self.paginate_queryset(self.get_queryset().order_by("-created_at", "-id"))
        return self.get_paginated_response([present_contact_source(s) for s in page])
