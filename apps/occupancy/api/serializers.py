"""Input validation of the area blocks endpoints (camelCase bodies)."""

from rest_framework import serializers

from apps.api.fields import InputSerializer, OrganizationObjectField, StrictCharField, StrictDateTimeField
from apps.clubs.models import Area
from apps.clubs.services import EARLIEST_INSTANT, LATEST_INSTANT


class AreaBlockCreateSerializer(InputSerializer):
    """Block an area for a time range (explicit offsets required)."""

    areaId = OrganizationObjectField(model=Area)
    startTime = StrictDateTimeField()
    endTime = StrictDateTimeField()
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
