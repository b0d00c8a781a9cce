"""Message templates (CRUD) and message drafts (CRUD on drafts only). Nothing is ever sent through the API: a staff
user sends a draft from the Django admin."""

from drf_spectacular.utils import OpenApiResponse, extend_schema

from apps.api.schema import crud_schema_view
from apps.api.scopes import crud_scopes
from apps.api.views import CreateResourceMixin, DestroyResourceMixin, ResourceViewSet, UpdateResourceMixin

from .. import services
from ..filters import MessageFilterSet, TemplateFilterSet
from ..models import Message, MessageTemplate
from ..resources import MESSAGE, TEMPLATE
from .serializers import (
    MessageCreateSerializer,
    MessageUpdateSerializer,
    TemplateCreateSerializer,
    TemplateUpdateSerializer,
)

CRUD = ["get", "post", "patch", "delete", "head"]
DELETED = {204: OpenApiResponse(description="Deleted")}


@crud_schema_view(
    "templates",
    summaries={
        "list": "List e-mail and SMS templates",
        "retrieve": "Get a template",
        "create": "Create a template",
        "partial_update": "Update a template",
    },
    destroy=extend_schema(
        operation_id="templates_delete",
        summary="Delete a template",
        description="Messages drafted from it keep their text; their `templateId` becomes null.",
        responses=DELETED,
    ),
)
@extend_schema(tags=["templates"])
class TemplateViewSet(CreateResourceMixin, UpdateResourceMixin, DestroyResourceMixin, ResourceViewSet):
    """E-mail and SMS templates: text with `{{ variable }}` placeholders, rendered in a sandbox."""

    queryset = MessageTemplate.objects.all()
    resource = TEMPLATE
    filterset_class = TemplateFilterSet
    http_method_names = CRUD
    required_scopes = crud_scopes("templates", write=("create", "partial_update", "destroy"))

    write_serializer = TemplateCreateSerializer
    update_serializer = TemplateUpdateSerializer

    def create_object(self, data):
        return services.create_template(self.organization, data)

    def update_object(self, template, data):
        services.update_template(template, data)

    def destroy_object(self, instance):
        services.delete_template(instance)


@crud_schema_view(
    "messages",
    summaries={
        "list": "List messages with their delivery status",
        "retrieve": "Get a message with its delivery counts",
        "create": "Prepare a message draft (never sent through the API)",
        "partial_update": "Update a draft message",
    },
    destroy=extend_schema(
        operation_id="messages_delete",
        summary="Delete a draft message",
        description="Drafts only: 409 `INVALID_STATE_TRANSITION` otherwise.",
        responses=DELETED,
    ),
)
@extend_schema(tags=["messages"])
class MessageViewSet(CreateResourceMixin, UpdateResourceMixin, DestroyResourceMixin, ResourceViewSet):
    """E-mail and SMS messages to contacts. The API prepares drafts only; a person sends a draft from the admin app,
    after which its `status` and `delivery` counts follow the send."""

    queryset = Message.objects.all()
    resource = MESSAGE
    filterset_class = MessageFilterSet
    http_method_names = CRUD
    required_scopes = crud_scopes("messages", write=("create", "partial_update", "destroy"))

    write_serializer = MessageCreateSerializer
    update_serializer = MessageUpdateSerializer

    def create_object(self, data):
        return services.create_message(self.organization, data)

    def update_object(self, message, data):
        services.update_message(message, data)

    def destroy_object(self, instance):
        services.delete_message(instance)
