"""Message templates (CRUD) and message drafts (CRUD on drafts only). Nothing is ever sent through the API: a staff
user sends a draft from the Django admin."""

from apps.api.schema import crud_schema_view
from apps.api.scopes import crud_scopes
from apps.api.views import CreateResourceMixin, DestroyResourceMixin, ResourceViewSet, UpdateResourceMixin, Writes

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


@crud_schema_view(
    "templates",
    tags=["templates"],
    descriptions={"destroy": "Messages drafted from it keep their text; their `templateId` becomes null."},
    summaries={
        "list": "List e-mail and SMS templates",
        "retrieve": "Get a template",
        "create": "Create a template",
        "partial_update": "Update a template",
        "destroy": "Delete a template",
    },
)
class TemplateViewSet(CreateResourceMixin, UpdateResourceMixin, DestroyResourceMixin, ResourceViewSet):
    """E-mail and SMS templates: text with `{{ variable }}` placeholders, rendered in a sandbox."""

    queryset = MessageTemplate.objects.all()
    resource = TEMPLATE
    filterset_class = TemplateFilterSet
    required_scopes = crud_scopes("templates", write=("create", "partial_update", "destroy"))

    write_serializer = TemplateCreateSerializer
    update_serializer = TemplateUpdateSerializer

    # A delete has no rule of its own: messages drafted from the template keep their text (`templateId` null).
    writes = Writes(create=services.create_template, update=services.update_template)


@crud_schema_view(
    "messages",
    tags=["messages"],
    descriptions={"destroy": "Drafts only: 409 `INVALID_STATE_TRANSITION` otherwise."},
    summaries={
        "list": "List messages with their delivery status",
        "retrieve": "Get a message with its delivery counts",
        "create": "Prepare a message draft (never sent through the API)",
        "partial_update": "Update a draft message",
        "destroy": "Delete a draft message",
    },
)
class MessageViewSet(CreateResourceMixin, UpdateResourceMixin, DestroyResourceMixin, ResourceViewSet):
    """E-mail and SMS messages to contacts. The API prepares drafts only; a person sends a draft from the admin app,
    after which its `status` and `delivery` counts follow the send."""

    queryset = Message.objects.all()
    resource = MESSAGE
    filterset_class = MessageFilterSet
    required_scopes = crud_scopes("messages", write=("create", "partial_update", "destroy"))

    write_serializer = MessageCreateSerializer
    update_serializer = MessageUpdateSerializer

    writes = Writes(create=services.create_message, update=services.update_message, delete=services.delete_message)
