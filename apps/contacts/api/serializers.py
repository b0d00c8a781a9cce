"""Input validation of contact writes, and response serializers used only for the OpenAPI document."""

from rest_framework import serializers

from apps.api.fields import (
    BoundedJSONObjectField,
    OrganizationObjectField,
    StrictBooleanField,
    StrictCharField,
    StrictEmailField,
    StrictURLField,
)

from ..models import ContactSource, PipelineStage

CUSTOM_FIELDS_MAX_BYTES = 16 * 1024
CUSTOM_FIELDS_MAX_DEPTH = 5


class ContactWriteSerializer(serializers.Serializer):
    """Create (`firstName` required) and PATCH (all optional). `status` and read-only fields are ignored."""

    firstName = StrictCharField(source="first_name", max_length=120)
    lastName = StrictCharField(source="last_name", max_length=120, required=False, allow_null=True, allow_blank=True)
    email = StrictEmailField(required=False, allow_null=True, allow_blank=True, max_length=254)
    phone = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=40)
    dateOfBirth = serializers.DateField(source="date_of_birth", required=False, allow_null=True)
    language = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=10)
    profileImage = StrictURLField(source="profile_image", required=False, allow_null=True, max_length=500)
    pipelineStageId = OrganizationObjectField(
        model=PipelineStage, source="pipeline_stage", required=False, allow_null=True
    )
    sourceId = OrganizationObjectField(model=ContactSource, source="source", required=False, allow_null=True)
    tags = serializers.ListField(child=StrictCharField(max_length=60), required=False, max_length=100)
    notes = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=10000)
    marketingConsent = StrictBooleanField(source="marketing_consent", required=False)
    customFields = BoundedJSONObjectField(
        source="custom_fields", required=False, max_bytes=CUSTOM_FIELDS_MAX_BYTES, max_depth=CUSTOM_FIELDS_MAX_DEPTH
    )

    def validate(self, attrs):
        for name in ("last_name", "email", "phone", "language"):
            if attrs.get(name) == "":
                attrs[name] = None
        if attrs.get("email"):
            attrs["email"] = attrs["email"].strip()
        return attrs


class ArchiveSerializer(serializers.Serializer):
    reason = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=1000)
