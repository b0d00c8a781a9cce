"""Input validation of webhook subscriptions and replays (responses: `apps.webhooks.resources`)."""

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from apps.api.fields import BoundedDateTimeField, InputSerializer, StrictBooleanField, StrictCharField

from ..catalogue import EVENT_TYPES, WILDCARD
from ..netguard import MAX_URL_LENGTH

TYPES_HELP = 'Event types (see the webhooks guide), or `["*"]` for every type the credential\'s scopes allow.'


class EventTypesField(serializers.ListField):
    def __init__(self, *, wildcard=True, **kwargs):
        self.wildcard = wildcard
        super().__init__(child=StrictCharField(max_length=60), max_length=len(EVENT_TYPES) + 1, **kwargs)

    def to_internal_value(self, data):
        types = super().to_internal_value(data)
        unknown = [t for t in types if t not in EVENT_TYPES and not (self.wildcard and t == WILDCARD)]
        if unknown:
            raise serializers.ValidationError(f"Unknown event type: {unknown[0]}.")
        if WILDCARD in types and len(types) > 1:
            raise serializers.ValidationError('"*" stands alone.')
        return list(dict.fromkeys(types))


class UrlField(StrictCharField):
    default_error_messages = {"max_length": f"Must be at most {MAX_URL_LENGTH} characters."}

    def __init__(self, **kwargs):
        super().__init__(max_length=MAX_URL_LENGTH, help_text="https only; redirects are not followed.", **kwargs)


@extend_schema_serializer(component_name="WebhookCreate")
class WebhookCreateSerializer(InputSerializer):
    url = UrlField()
    events = EventTypesField(allow_empty=False, help_text=TYPES_HELP)
    description = StrictCharField(max_length=500, required=False, allow_blank=True, allow_null=True)
    isActive = StrictBooleanField(required=False)


@extend_schema_serializer(component_name="WebhookUpdate")
class WebhookUpdateSerializer(WebhookCreateSerializer):
    """Partial update; re-enabling (`isActive: true`) clears `disabledReason`."""


@extend_schema_serializer(component_name="WebhookReplay")
class ReplaySerializer(InputSerializer):
    since = BoundedDateTimeField(help_text="Inclusive; at most 30 days back.")
    until = BoundedDateTimeField(required=False, allow_null=True, help_text="Inclusive; default now.")
    types = EventTypesField(wildcard=False, required=False, allow_null=True, help_text="Only these types.")
