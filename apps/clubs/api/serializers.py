"""Input validation (camelCase bodies) and response schemas used only for the OpenAPI document."""

from rest_framework import serializers

from apps.api.fields import (
    OrganizationObjectField,
    StrictBooleanField,
    StrictCharField,
    StrictDecimalField,
    StrictIntegerField,
    StrictSlugField,
)

from ..models import AreaType, Club

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


# --- Response shapes (documentation only) ----------------------------------------------------------------------
