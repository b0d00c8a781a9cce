"""Input validation for class types, and response serializers used only to document the OpenAPI schema."""

from drf_spectacular.utils import extend_schema_serializer

from apps.api.fields import (
    InputSerializer,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    StrictRegexField,
    StrictSlugField,
)

HEX_COLOR = r"^#[0-9A-Fa-f]{6}$"


@extend_schema_serializer(component_name="ClassTypeInput")
class ClassTypeInputSerializer(InputSerializer):
    """Create/update body. `translations` is read-only through the API (ignored like any unknown field)."""

    name = StrictCharField(max_length=100)
    slug = StrictSlugField(max_length=120, required=False, allow_null=True)
    description = StrictCharField(max_length=5000, required=False, allow_null=True, allow_blank=True)
    maxPartySize = StrictIntegerField(min_value=1, max_value=1000, required=False, allow_null=True)
    color = StrictRegexField(
        HEX_COLOR,
        required=False,
        allow_null=True,
        error_messages={"invalid": "Must be a hex colour such as `#1A2B3C`."},
    )
    sport = StrictCharField(max_length=60, required=False, allow_null=True, allow_blank=True)
    isActive = StrictBooleanField(required=False)
