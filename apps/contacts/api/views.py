"""Contacts, pipeline stages and contact sources."""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.decorators import action
from rest_framework.response import Response

from apps.api.schema import crud_schema_view
from apps.api.scopes import crud_scopes
from apps.api.views import CreateResourceMixin, ListResourceMixin, PlatformViewSet, ResourceViewSet, UpdateResourceMixin

from .. import services
from ..filters import ContactFilterSet, ContactSourceFilterSet, PipelineStageFilterSet
from ..models import Contact, ContactSource, PipelineStage
from ..resources import CONTACT, CONTACT_SOURCE, PIPELINE_STAGE
from .serializers import ArchiveSerializer, ContactWriteSerializer

ID_PARAM = OpenApiParameter("id", int, OpenApiParameter.PATH)


@crud_schema_view(
    "contacts",
    tags=["contacts"],
    parameters={"retrieve": [ID_PARAM], "partial_update": [ID_PARAM]},
    archive=extend_schema(
        operation_id="contacts_archive",
        summary="Archive a contact (cancels active memberships and future bookings)",
        parameters=[ID_PARAM],
        request=ArchiveSerializer,
        responses=CONTACT.serializer,
    ),
    restore=extend_schema(
        operation_id="contacts_restore",
        summary="Restore an archived contact",
        parameters=[ID_PARAM],
        request=None,
        responses=CONTACT.serializer,
    ),
)
class ContactViewSet(CreateResourceMixin, UpdateResourceMixin, ResourceViewSet):
    """People known to the organization. Archive/restore need `contacts:delete`; there is no hard delete."""

    queryset = Contact.objects.all()
    resource = CONTACT
    filterset_class = ContactFilterSet
    required_scopes = crud_scopes("contacts", archive="contacts:delete", restore="contacts:delete")

    write_serializer = ContactWriteSerializer

    def reveal_existing_id(self) -> bool:
        """A 409 on a taken e-mail names the contact holding it only to a credential that may read contacts."""
        return self.credential.has_scope("contacts:read")

    def create_object(self, data):
        return services.create_contact(self.organization, reveal_existing_id=self.reveal_existing_id(), **data)

    def update_object(self, contact, data):
        services.update_contact(contact, reveal_existing_id=self.reveal_existing_id(), **data)

    @action(detail=True, methods=["post"], url_path="archive")
    def archive(self, request, pk=None):
        contact = self.get_object()
        reason = self.validated(ArchiveSerializer).get("reason") or None
        contact = services.archive_contact(contact, reason=reason)
        return Response(self.present(contact.pk))

    @action(detail=True, methods=["post"], url_path="restore")
    def restore(self, request, pk=None):
        contact = services.restore_contact(self.get_object(), reveal_existing_id=self.reveal_existing_id())
        return Response(self.present(contact.pk))


@crud_schema_view("pipeline_stages", tags=["contacts"])
class PipelineStageViewSet(ListResourceMixin, PlatformViewSet):
    """Sales pipeline stages, ordered by position. Read-only."""

    queryset = PipelineStage.objects.all()
    resource = PIPELINE_STAGE
    filterset_class = PipelineStageFilterSet
    required_scopes = {"list": "contacts:read"}


@crud_schema_view("contact_sources", tags=["contacts"])
class ContactSourceViewSet(ListResourceMixin, PlatformViewSet):
    """Where contacts come from. Read-only."""

    queryset = ContactSource.objects.all()
    resource = CONTACT_SOURCE
    filterset_class = ContactSourceFilterSet
    required_scopes = {"list": "contacts:read"}
