"""Input validation (camelCase bodies) and response schemas used only for the OpenAPI document."""

from rest_framework import serializers

from apps.api.fields import (
    OrganizationObjectField,
    StrictBooleanField,
    StrictCharField,
    StrictDateTimeField,
    StrictDecimalField,
    StrictIntegerField,
    StrictSlugField,
)

from ..models import Area, AreaType, Club
from ..services import EARLIEST_INSTANT, LATEST_INSTANT

# --- Input ---------------------------------------------------------------------------------------------------


class AreaUpdateSerializer(serializers.Serializer):
    """Writable fields of an area (PATCH: any subset). `clubId` is fixed at creation."""

    name = StrictCharField(max_length=120)
    areaTypeId = OrganizationObjectField(model=AreaType, source="area_type", required=False, allow_null=True)
    sports = serializers.ListField(child=StrictCharField(max_length=60), max_length=50, required=False)
    hourlyRate = StrictDecimalField(
        source="hourly_rate", max_digits=10, decimal_places=2, min_value=0, required=False, allow_null=True
    )
    isIndoor = StrictBooleanField(source="is_indoor", required=False)
    isActive = StrictBooleanField(source="is_active", required=False)
    images = serializers.ListField(child=StrictCharField(max_length=500), max_length=50, required=False)
    position = StrictIntegerField(required=False, min_value=-1_000_000, max_value=1_000_000)


class AreaCreateSerializer(AreaUpdateSerializer):
    """An area of one of the organization's clubs; `clubId` and `name` are required."""

    clubId = OrganizationObjectField(model=Club, source="club")


class AreaTypeWriteSerializer(serializers.Serializer):
    """`name` is required on create; `slug` is derived from the name when omitted."""

    name = StrictCharField(max_length=120)
    slug = StrictSlugField(max_length=120, required=False)
    maxPlayers = StrictIntegerField(source="max_players", min_value=1, max_value=1000, required=False, allow_null=True)


class AreaBlockCreateSerializer(serializers.Serializer):
    """Block an area for a time range (explicit offsets required)."""

    areaId = OrganizationObjectField(model=Area, source="area")
    startTime = StrictDateTimeField(source="start_time")
    endTime = StrictDateTimeField(source="end_time")
    reason = StrictCharField(max_length=255, required=False, allow_null=True, allow_blank=True)

    def validate(self, attrs):
        out_of_range = {
            name: ["Must be between 1900-01-01 and 9999-12-01."]
            for field, name in (("start_time", "startTime"), ("end_time", "endTime"))
            if not EARLIEST_INSTANT <= attrs[field] <= LATEST_INSTANT
        }
        if out_of_range:
            raise serializers.ValidationError(out_of_range)
        if attrs["end_time"] <= attrs["start_time"]:
            raise serializers.ValidationError({"endTime": ["Must be after `startTime`."]})
        return attrs


# --- Response shapes (documentation only) ----------------------------------------------------------------------


class AmenityResolvedSerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    icon = serializers.CharField(allow_null=True)
    category = serializers.CharField(allow_null=True)


class ClubRatingSerializer(serializers.Serializer):
    average = serializers.FloatField()
    total = serializers.IntegerField()


class ClubSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField(allow_null=True)
    address = serializers.CharField(allow_null=True)
    city = serializers.CharField(allow_null=True)
    state = serializers.CharField(allow_null=True)
    country = serializers.CharField(allow_null=True)
    postalCode = serializers.CharField(allow_null=True)
    phone = serializers.CharField(allow_null=True)
    email = serializers.CharField(allow_null=True)
    website = serializers.CharField(allow_null=True)
    logo = serializers.CharField(allow_null=True)
    images = serializers.ListField(child=serializers.CharField())
    amenities = serializers.ListField(child=serializers.CharField())
    amenitiesResolved = AmenityResolvedSerializer(many=True)
    sports = serializers.ListField(child=serializers.CharField())
    rating = ClubRatingSerializer(
        required=False, allow_null=True, help_text="Omitted when the club has no public reviews."
    )
    socialProfiles = serializers.DictField(child=serializers.CharField())
    timezone = serializers.CharField()


class AreaTypeRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class AreaSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    clubId = serializers.IntegerField()
    name = serializers.CharField()
    areaTypeId = serializers.IntegerField(allow_null=True)
    areaType = AreaTypeRefSerializer(allow_null=True)
    sports = serializers.ListField(child=serializers.CharField())
    hourlyRate = serializers.FloatField(allow_null=True, help_text="Before tax.")
    isIndoor = serializers.BooleanField()
    isActive = serializers.BooleanField()
    images = serializers.ListField(child=serializers.CharField())
    position = serializers.IntegerField()
    createdAt = serializers.DateTimeField()
    updatedAt = serializers.DateTimeField()


class AreaTypeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()
    maxPlayers = serializers.IntegerField(allow_null=True)
    createdAt = serializers.DateTimeField()
    updatedAt = serializers.DateTimeField()


class AreaBlockSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    clubId = serializers.IntegerField()
    areaId = serializers.IntegerField()
    startTime = serializers.DateTimeField()
    endTime = serializers.DateTimeField()
    reason = serializers.CharField(allow_null=True)
    createdAt = serializers.DateTimeField()


class AvailabilityIntervalSerializer(serializers.Serializer):
    clubId = serializers.IntegerField()
    areaId = serializers.IntegerField()
    areaName = serializers.CharField()
    startTime = serializers.DateTimeField()
    endTime = serializers.DateTimeField()
