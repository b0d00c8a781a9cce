"""Input validation of booking policies and document rules (every field typed and bounded)."""

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from apps.api.fields import (
    InputSerializer,
    OrganizationIdsField,
    OrganizationObjectField,
    StrictBooleanField,
    StrictCharField,
    StrictDecimalField,
    StrictIntegerField,
    StrictURLField,
)
from apps.billing.models import Plan
from apps.classes.models import ClassType
from apps.clubs.models import AreaType, Club
from apps.content.models import ContentItem
from apps.events.models import Event

from ..choices import DocumentAppliesTo, DocumentRequirement, DocumentType, PolicyAppliesTo


def _limit(source, min_value, max_value, help_text):
    return StrictIntegerField(
        source=source,
        min_value=min_value,
        max_value=max_value,
        required=False,
        allow_null=True,
        help_text=f"{help_text} {min_value}..{max_value}; null: no limit.",
    )


@extend_schema_serializer(component_name="BookingPolicyCreate")
class BookingPolicyCreateSerializer(InputSerializer):
    """POST body: `name` and `appliesTo` are required. `areaTypeIds` only with `appliesTo: areas`, `classTypeIds`
    only with `appliesTo: classes`. The first policy of an `appliesTo` becomes its default; `isDefault: true`
    makes this one the default and the previous default stops being one, atomically."""

    name = StrictCharField(max_length=120)
    appliesTo = serializers.ChoiceField(choices=PolicyAppliesTo.choices)
    clubId = OrganizationObjectField(model=Club, required=False, allow_null=True)
    areaTypeIds = OrganizationIdsField(AreaType, "area type", required=False)
    classTypeIds = OrganizationIdsField(ClassType, "class type", required=False)
    advanceBookingDays = _limit("advance_booking_days", 0, 730, "Days ahead a booking may start,")
    minAdvanceMinutes = _limit("min_advance_minutes", 0, 43200, "Minutes before the start a booking must be made,")
    maxDurationMinutes = _limit("max_duration_minutes", 1, 1440, "Longest booking in minutes,")
    cancellationWindowHours = _limit("cancellation_window_hours", 0, 720, "Late-cancellation window in hours,")
    lateCancellationFee = StrictDecimalField(
        max_digits=10,
        decimal_places=2,
        min_value=0,
        required=False,
        allow_null=True,
        help_text="Fee of a late cancellation before tax, 0..99999999.99, at most 2 decimals; null: none.",
    )
    maxActiveBookingsPerContact = _limit("max_active_bookings_per_contact", 1, 1000, "Active bookings per contact,")
    isDefault = StrictBooleanField(required=False)


@extend_schema_serializer(component_name="BookingPolicyUpdate")
class BookingPolicyUpdateSerializer(BookingPolicyCreateSerializer):
    """PATCH body: any field of the create body. `isDefault: false` on the default policy is refused (409
    `CONFLICT`): make another policy the default instead. Id lists replace the whole list."""


@extend_schema_serializer(component_name="DocumentRuleCreate")
class DocumentRuleCreateSerializer(InputSerializer):
    """POST body: `name`, `documentType`, `requirement` and `appliesTo` are required. `planIds` only with
    `appliesTo: plans`, `classTypeIds` only with `class_types`, `eventIds` only with `events`."""

    name = StrictCharField(max_length=120)
    documentType = serializers.ChoiceField(choices=DocumentType.choices)
    contentItemId = OrganizationObjectField(
        model=ContentItem,
        required=False,
        allow_null=True,
        help_text="A content item of the organization holding the document's text (any type and status).",
    )
    documentUrl = StrictURLField(max_length=2000, required=False, allow_null=True)
    requirement = serializers.ChoiceField(choices=DocumentRequirement.choices)
    appliesTo = serializers.ChoiceField(choices=DocumentAppliesTo.choices)
    planIds = OrganizationIdsField(Plan, "plan", required=False)
    classTypeIds = OrganizationIdsField(ClassType, "class type", required=False)
    eventIds = OrganizationIdsField(Event, "event", required=False)
    renewEveryDays = StrictIntegerField(
        min_value=1,
        max_value=3650,
        required=False,
        allow_null=True,
        help_text="1..3650; null: signed once.",
    )
    isActive = StrictBooleanField(required=False)


@extend_schema_serializer(component_name="DocumentRuleUpdate")
class DocumentRuleUpdateSerializer(DocumentRuleCreateSerializer):
    """PATCH body: any field of the create body; id lists replace the whole list."""
