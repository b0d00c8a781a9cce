"""Input validation of contact writes."""

from rest_framework import serializers

from apps.api.fields import (
    BoundedJSONObjectField,
    InputSerializer,
    OrganizationObjectField,
    StrictBooleanField,
    StrictCharField,
    StrictEmailField,
    StrictURLField,
)

from ..models import ContactSource, PipelineStage

CUSTOM_FIELDS_MAX_BYTES = 16 * 1024
CUSTOM_FIELDS_MAX_DEPTH = 5


class ContactWriteSerializer(InputSerializer):
    """Create (`firstName` required) and PATCH (all optional). `status` and read-only fields are ignored."""

    firstName = StrictCharField(max_length=120)
    lastName = StrictCharField(max_length=120, required=False, allow_null=True, allow_blank=True)
    email = StrictEmailField(required=False, allow_null=True, allow_blank=True, max_length=254)
    phone = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=40)
    dateOfBirth = serializers.DateField(required=False, allow_null=True)
    language = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=10)
    profileImage = StrictURLField(required=False, allow_null=True, max_length=500)
    pipelineStageId = OrganizationObjectField(model=PipelineStage, required=False, allow_null=True)
    sourceId = OrganizationObjectField(model=ContactSource, required=False, allow_null=True)
    tags = serializers.ListField(child=StrictCharField(max_length=60), required=False, max_length=100)
    notes = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=10000)
    marketingConsent = StrictBooleanField(required=False)
    customFields = BoundedJSONObjectField(
        required=False, max_bytes=CUSTOM_FIELDS_MAX_BYTES, max_depth=CUSTOM_FIELDS_MAX_DEPTH
    )

    blank_is_null = ("last_name", "email", "phone", "language")


class ArchiveSerializer(InputSerializer):
    reason = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=1000)
