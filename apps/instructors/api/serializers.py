"""Input validation for instructors, instructor types and pay-rate policies."""

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from apps.api.fields import (
    BoundedJSONObjectField,
    InputSerializer,
    OrganizationObjectField,
    StrictBooleanField,
    StrictCharField,
    StrictDecimalField,
    StrictEmailField,
    StrictRegexField,
)
from apps.clubs.choices import DayOfWeek
from apps.clubs.models import Club
from apps.contacts.models import Contact

from ..choices import RateType
from ..models import InstructorType, PayRatePolicy

TIME_OF_DAY = r"^([01]\d|2[0-3]):[0-5]\d$"
# A block-editor document nests deeper than a flat object (blocks > block > data > items > item > items ...).
BIO_MAX_BYTES = 64 * 1024
BIO_MAX_DEPTH = 10


@extend_schema_serializer(component_name="AvailabilitySlotInput")
class AvailabilitySlotSerializer(serializers.Serializer):
    dayOfWeek = serializers.ChoiceField(choices=DayOfWeek.choices)
    startTime = StrictRegexField(TIME_OF_DAY, error_messages={"invalid": "Must be a time of day `HH:MM`."})
    endTime = StrictRegexField(TIME_OF_DAY, error_messages={"invalid": "Must be a time of day `HH:MM`."})
    clubId = OrganizationObjectField(model=Club, required=False, allow_null=True)

    def validate(self, attrs):
        # A PATCH replaces the whole list, so every slot is complete even though the parent body is partial.
        missing = [name for name in ("dayOfWeek", "startTime", "endTime") if name not in attrs]
        if missing:
            raise serializers.ValidationError({name: ["This field is required."] for name in missing})
        if attrs["startTime"] >= attrs["endTime"]:
            raise serializers.ValidationError({"endTime": ["Must be after `startTime`."]})
        club = attrs.get("clubId")
        attrs["clubId"] = club.pk if club is not None else None
        return attrs


@extend_schema_serializer(component_name="InstructorNewContact")
class NewContactSerializer(InputSerializer):
    firstName = StrictCharField(max_length=120)
    lastName = StrictCharField(max_length=120, required=False, allow_null=True, allow_blank=True)
    email = StrictEmailField(required=False, allow_null=True, allow_blank=True, max_length=254)
    phone = StrictCharField(max_length=40, required=False, allow_null=True, allow_blank=True)


@extend_schema_serializer(component_name="InstructorUpdate")
class InstructorUpdateSerializer(InputSerializer):
    """PATCH body. The contact of an instructor cannot be changed (`contactId`/`contact` are ignored)."""

    sports = serializers.ListField(child=StrictCharField(max_length=60), max_length=50, required=False)
    typeId = OrganizationObjectField(model=InstructorType, required=False, allow_null=True)
    payRatePolicyId = OrganizationObjectField(model=PayRatePolicy, required=False, allow_null=True)
    experience = StrictCharField(max_length=255, required=False, allow_null=True, allow_blank=True)
    hourlyRate = StrictDecimalField(max_digits=10, decimal_places=2, min_value=0, required=False, allow_null=True)
    bio = BoundedJSONObjectField(
        required=False,
        allow_null=True,
        help_text="Block-editor document.",
        max_bytes=BIO_MAX_BYTES,
        max_depth=BIO_MAX_DEPTH,
    )
    certifications = serializers.ListField(child=StrictCharField(max_length=200), max_length=100, required=False)
    isActive = StrictBooleanField(required=False)
    isBookable = StrictBooleanField(required=False)
    weeklyAvailability = AvailabilitySlotSerializer(many=True, required=False, max_length=100)


@extend_schema_serializer(component_name="InstructorCreate")
class InstructorCreateSerializer(InstructorUpdateSerializer):
    """POST body: exactly one of `contactId` (an existing contact) or `contact` (a new contact)."""

    contactId = OrganizationObjectField(model=Contact, required=False)
    contact = NewContactSerializer(source="new_contact", required=False)

    def validate(self, attrs):
        if ("contact" in attrs) == ("new_contact" in attrs):
            raise serializers.ValidationError({"contactId": ["Give exactly one of `contactId` or `contact`."]})
        return attrs


@extend_schema_serializer(component_name="InstructorTypeInput")
class InstructorTypeInputSerializer(InputSerializer):
    name = StrictCharField(max_length=120)
    description = StrictCharField(max_length=5000, required=False, allow_null=True, allow_blank=True)


@extend_schema_serializer(component_name="PayRatePolicyInput")
class PayRatePolicyInputSerializer(InputSerializer):
    name = StrictCharField(max_length=120)
    rateType = serializers.ChoiceField(choices=RateType.choices)
    amount = StrictDecimalField(max_digits=10, decimal_places=2, min_value=0)
    isActive = StrictBooleanField(required=False)
