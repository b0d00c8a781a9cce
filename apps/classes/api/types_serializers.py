"""Input validation for class types, and response serializers used only to document the OpenAPI schema."""

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from apps.api.fields import (
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    StrictRegexField,
    StrictSlugField,
)

HEX_COLOR = r"^#[0-9A-Fa-f]{6}$"


@extend_schema_serializer(component_name="ClassTypeInput")
class ClassTypeInputSerializer(serializers.Serializer):
    """Create/update body. `translations` is read-only through the API (ignored like any unknown field)."""

    name = StrictCharField(max_length=100)
    slug = StrictSlugField(max_length=120, required=False, allow_null=True)
    description = StrictCharField(max_length=5000, required=False, allow_null=True, allow_blank=True)
    maxPartySize = StrictIntegerField(
        source="max_party_size", min_value=1, max_value=1000, required=False, allow_null=True
    )
    color = StrictRegexField(
        HEX_COLOR,
        required=False,
        allow_null=True,
        error_messages={"invalid": "Must be a hex colour such as `#1A2B3C`."},
    )
    sport = StrictCharField(max_length=60, required=False, allow_null=True, allow_blank=True)
    isActive = StrictBooleanField(source="is_active", required=False)


@extend_schema_serializer(component_name="ClassType")
class ClassTypeSchema(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField(allow_null=True)
    description = serializers.CharField(allow_null=True)
    maxPartySize = serializers.IntegerField(
        allow_null=True, help_text="Default party size of classes of this type; a class uses 1 when null."
    )
    color = serializers.CharField(allow_null=True)
    sport = serializers.CharField(allow_null=True)
    isActive = serializers.BooleanField()
    translations = serializers.DictField(help_text="{locale: {name, description}}; read-only.")
    createdAt = serializers.DateTimeField()
    updatedAt = serializers.DateTimeField()


@extend_schema_serializer(component_name="ProgressionLevel")
class ProgressionLevelSchema(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    position = serializers.IntegerField()


@extend_schema_serializer(component_name="ProgressionTrack")
class ProgressionTrackSchema(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()
    description = serializers.CharField(allow_null=True)
    classTypeIds = serializers.ListField(child=serializers.IntegerField())
    levels = ProgressionLevelSchema(many=True)
    translations = serializers.DictField()
    createdAt = serializers.DateTimeField()
    updatedAt = serializers.DateTimeField()
