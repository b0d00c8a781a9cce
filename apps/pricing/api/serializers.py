"""Input validation of pricing rules and of the quote's query parameters."""

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from apps.api.fields import (
    MAX_INT,
    BoundedDateTimeField,
    OrganizationIdsField,
    OrganizationObjectField,
    StrictBooleanField,
    StrictCharField,
    StrictDecimalField,
    StrictIntegerField,
    StrictRegexField,
)
from apps.billing.models import Plan
from apps.clubs.choices import DayOfWeek
from apps.clubs.models import Area, AreaType, Club
from apps.contacts.models import Contact

from ..choices import AdjustmentType, Audience

# `HH:MM`; `24:00` ends a band at midnight.
TIME_OF_DAY = r"^(([01]\d|2[0-3]):[0-5]\d|24:00)$"
TIME_MESSAGE = "Must be a time of day `HH:MM` (`00:00` to `24:00`)."
MAX_SPORTS = 50
MAX_PRIORITY = 10000


class MinuteOfDayField(StrictRegexField):
    """A time of day `HH:MM`, validated as minutes since midnight (the rule's `start_minute`/`end_minute`)."""

    def __init__(self, **kwargs):
        super().__init__(TIME_OF_DAY, error_messages={"invalid": TIME_MESSAGE}, **kwargs)

    def run_validation(self, data=serializers.empty):
        value = super().run_validation(data)  # the pattern is a validator: it has run once this returns
        if value is None:
            return None
        hours, minutes = value.split(":")
        return int(hours) * 60 + int(minutes)


@extend_schema_serializer(component_name="PricingRuleInput")
class PricingRuleInputSerializer(serializers.Serializer):
    """POST requires `name`, `adjustmentType` and `value`; PATCH is partial (an omitted field stays unchanged)."""

    name = StrictCharField(max_length=120)
    clubId = OrganizationObjectField(model=Club, source="club", required=False, allow_null=True)
    areaIds = OrganizationIdsField(
        Area,
        "area",
        required=False,
        source="area_ids",
        help_text="The organization's areas (of `clubId` when it is set); empty for every area.",
    )
    areaTypeIds = OrganizationIdsField(
        AreaType,
        "area type",
        required=False,
        source="area_type_ids",
        help_text="The organization's area types; empty for every type.",
    )
    sports = serializers.ListField(child=StrictCharField(max_length=60), max_length=MAX_SPORTS, required=False)
    daysOfWeek = serializers.ListField(
        child=serializers.ChoiceField(choices=DayOfWeek.choices), max_length=7, required=False, source="days_of_week"
    )
    startTime = MinuteOfDayField(required=False, allow_null=True, source="start_minute")
    endTime = MinuteOfDayField(required=False, allow_null=True, source="end_minute")
    validFrom = serializers.DateField(required=False, allow_null=True, source="valid_from")
    validUntil = serializers.DateField(required=False, allow_null=True, source="valid_until")
    audience = serializers.ChoiceField(choices=Audience.choices, required=False)
    planIds = OrganizationIdsField(
        Plan,
        "plan",
        required=False,
        source="plan_ids",
        help_text="The organization's plans; non-empty: only contacts with an active membership of one of them.",
    )
    adjustmentType = serializers.ChoiceField(choices=AdjustmentType.choices, source="adjustment_type")
    value = StrictDecimalField(
        max_digits=10,
        decimal_places=2,
        help_text="`set_hourly_rate`: the hourly rate (≥ 0); `percent`: -100 to 1000; `amount`: added to the hourly "
        "rate (negative for a discount).",
    )
    priority = StrictIntegerField(min_value=0, max_value=MAX_PRIORITY, required=False)
    isActive = StrictBooleanField(required=False, source="is_active")

    def validate_daysOfWeek(self, value):  # noqa: N802 - the API's field name
        return [day for day in DayOfWeek.values if day in value]

    def validate_sports(self, value):
        return list(dict.fromkeys(value))


@extend_schema_serializer(component_name="PriceQuoteQuery")
class QuoteQuerySerializer(serializers.Serializer):
    """The quote's query parameters (strings in a query, hence the plain integer fields)."""

    areaId = serializers.IntegerField(min_value=1, max_value=MAX_INT)
    startTime = BoundedDateTimeField()
    endTime = BoundedDateTimeField()
    contactId = serializers.IntegerField(min_value=1, max_value=MAX_INT, required=False)
    playerCount = serializers.IntegerField(min_value=1, max_value=1000, required=False)
    sport = StrictCharField(max_length=60, required=False)

    def validate_areaId(self, value):  # noqa: N802
        organization = self.context["request"].organization
        area = Area.objects.filter(organization=organization, id=value).select_related("club", "area_type").first()
        if area is None:
            raise serializers.ValidationError(f"No area with id {value} exists in this organization.")
        return area

    def validate_contactId(self, value):  # noqa: N802
        contact = Contact.objects.filter(organization=self.context["request"].organization, id=value).first()
        if contact is None:
            raise serializers.ValidationError(f"No contact with id {value} exists in this organization.")
        return contact
