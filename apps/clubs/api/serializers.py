"""Input validation (camelCase bodies) of areas and area types."""

from rest_framework import serializers

from apps.api.fields import (
    InputSerializer,
    OrganizationObjectField,
    StrictBooleanField,
    StrictCharField,
    StrictDecimalField,
    StrictIntegerField,
    StrictSlugField,
)

from ..models import AreaType, Club


class AreaUpdateSerializer(InputSerializer):
    """Writable fields of an area (PATCH: any subset). `clubId` is fixed at creation."""

    name = StrictCharField(max_length=120)
    areaTypeId = OrganizationObjectField(model=AreaType, required=False, allow_null=True)
    sports = serializers.ListField(child=StrictCharField(max_length=60), max_length=50, required=False)
    hourlyRate = StrictDecimalField(max_digits=10, decimal_places=2, min_value=0, required=False, allow_null=True)
    isIndoor = StrictBooleanField(required=False)
    isActive = StrictBooleanField(required=False)
    images = serializers.ListField(child=StrictCharField(max_length=500), max_length=50, required=False)
    position = StrictIntegerField(required=False, min_value=-1_000_000, max_value=1_000_000)


class AreaCreateSerializer(AreaUpdateSerializer):
    """An area of one of the organization's clubs; `clubId` and `name` are required."""

    clubId = OrganizationObjectField(model=Club)


class AreaTypeWriteSerializer(InputSerializer):
    """`name` is required on create; `slug` is derived from the name when omitted."""

    name = StrictCharField(max_length=120)
    slug = StrictSlugField(max_length=120, required=False)
    maxPlayers = StrictIntegerField(min_value=1, max_value=1000, required=False, allow_null=True)
