"""Input validation of templates and message drafts. The rules that depend on the channel (an e-mail subject, the
SMS length, the sandboxed template syntax) are checked by the services on the text as it will be stored."""

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from apps.api.fields import (
    InputSerializer,
    OrganizationIdsField,
    OrganizationObjectField,
    StrictBooleanField,
    StrictCharField,
)
from apps.contacts.models import Contact

from ..choices import MessageChannel, MessageStatus
from ..models import MessageTemplate

BODY_MAX = 100_000
MAX_RECIPIENTS = 5000
BODY_HELP = (
    "Django template syntax in a sandbox: `{{ variable }}` placeholders with simple filters, `{% if %}`, "
    "`{% firstof %}`, `{% comment %}`, `{% verbatim %}`, `{% spaceless %}`; any other tag (`{% load %}`, "
    "`{% include %}`, ...) or a syntax error is a 400 naming the field. SMS: at most 1600 characters. An e-mail "
    "body is HTML (variables are escaped)."
)


class TextField(StrictCharField):
    """Subject or body text: kept as written (no trimming), but not blank."""

    def __init__(self, **kwargs):
        kwargs.setdefault("trim_whitespace", False)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if not value.strip() and not self.allow_blank:
            self.fail("blank")
        return value


@extend_schema_serializer(component_name="TemplateCreate")
class TemplateCreateSerializer(InputSerializer):
    """POST body: `name`, `channel` and `body` are required; `subject` is required for e-mail."""

    name = StrictCharField(max_length=120)
    channel = serializers.ChoiceField(choices=MessageChannel.choices)
    subject = TextField(
        max_length=255, required=False, allow_null=True, allow_blank=True, help_text="Required for e-mail; SMS: null."
    )
    body = TextField(max_length=BODY_MAX, help_text=BODY_HELP)
    isActive = StrictBooleanField(required=False)


@extend_schema_serializer(component_name="TemplateUpdate")
class TemplateUpdateSerializer(TemplateCreateSerializer):
    """PATCH body: any field of the create body; the rules are checked on the result (changing `channel` to `sms`
    drops the stored subject)."""


@extend_schema_serializer(component_name="MessageCreate")
class MessageCreateSerializer(InputSerializer):
    """POST body: a draft. `channel` and `body` are required, `subject` too for e-mail. Nothing is sent through
    the API: a person sends the draft from the admin app."""

    channel = serializers.ChoiceField(choices=MessageChannel.choices)
    subject = TextField(
        max_length=255, required=False, allow_null=True, allow_blank=True, help_text="Required for e-mail; SMS: null."
    )
    body = TextField(max_length=BODY_MAX, help_text=BODY_HELP)
    templateId = OrganizationObjectField(
        model=MessageTemplate,
        required=False,
        allow_null=True,
        help_text="An active template of the organization on the same channel (its text is not copied).",
    )
    contactIds = OrganizationIdsField(
        Contact,
        "contact",
        required=False,
        max_length=MAX_RECIPIENTS,
        help_text=f"The recipients: contacts of the organization, at most {MAX_RECIPIENTS}; the list replaces the "
        "stored one.",
    )
    status = serializers.ChoiceField(
        choices=MessageStatus.choices,
        required=False,
        help_text="Only `draft` (the default); any other status is a 400: sending happens in the admin app.",
    )

    def validate_status(self, value):
        if value != MessageStatus.DRAFT:
            raise serializers.ValidationError(
                "Only `draft` can be set through the API; a person sends a draft from the admin app."
            )
        return value


@extend_schema_serializer(component_name="MessageUpdate")
class MessageUpdateSerializer(MessageCreateSerializer):
    """PATCH body: any field of the create body; drafts only (409 `INVALID_STATE_TRANSITION` otherwise)."""
