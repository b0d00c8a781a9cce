"""Input validation of booking, player and channel writes; response serializers used only for OpenAPI."""

from django.core.validators import MaxLengthValidator
from rest_framework import serializers

from apps.api.fields import (
    InputSerializer,
    OrganizationObjectField,
    StrictBooleanField,
    StrictCharField,
    StrictDateTimeField,
    StrictDecimalField,
    StrictEmailField,
    StrictRegexField,
)
from apps.classes.models import ClassOccurrence
from apps.clubs.models import Area
from apps.contacts.models import Contact

from ..choices import CHANNEL_BOOKING_TYPES, WRITABLE_BOOKING_STATUSES, BookingType
from ..models import MAX_PLAYERS_PER_BOOKING

MONEY = {"max_digits": 10, "decimal_places": 2, "min_value": 0, "coerce_to_string": False}
EARLIEST_YEAR, LATEST_YEAR = 1900, 2199


class BoundedDateTimeField(StrictDateTimeField):
    """A strict date-time within years 1900..2199: anything else is a 400, never an overflow deeper down (a time at
    the edge of the calendar cannot be moved to a club's clock)."""

    default_error_messages = {"out_of_range": f"Must be between {EARLIEST_YEAR}-01-01 and {LATEST_YEAR}-12-31."}

    def to_internal_value(self, value):
        parsed = super().to_internal_value(value)
        if not EARLIEST_YEAR <= parsed.year <= LATEST_YEAR:
            self.fail("out_of_range")
        return parsed


class PlayerInputSerializer(InputSerializer):
    """`{contactId}` or `{name, email?}`."""

    contactId = OrganizationObjectField(model=Contact, required=False)
    name = StrictCharField(required=False, max_length=200)
    email = StrictEmailField(required=False, allow_null=True, allow_blank=True, max_length=254)

    def validate(self, attrs):
        if "contact" in attrs:
            if attrs.get("name") or attrs.get("email"):
                raise serializers.ValidationError("Send either `contactId` or `name` (with `email?`), not both.")
            return {"contact": attrs["contact"]}
        if not attrs.get("name"):
            raise serializers.ValidationError({"name": ["Required when `contactId` is not given."]})
        return {"name": attrs["name"], "email": attrs.get("email") or None}


def player_list():
    """At most 50 entries (400 on `players`); the validator only puts `maxItems` into the OpenAPI document, the
    list's own `max_length` answers first."""
    return serializers.ListSerializer(
        child=PlayerInputSerializer(),
        required=False,
        max_length=MAX_PLAYERS_PER_BOOKING,
        validators=[MaxLengthValidator(MAX_PLAYERS_PER_BOOKING)],
    )


class AreaBookingCreateSerializer(InputSerializer):
    areaId = OrganizationObjectField(model=Area)
    startTime = BoundedDateTimeField()
    endTime = BoundedDateTimeField()
    contactId = OrganizationObjectField(model=Contact)
    players = player_list()
    sport = StrictCharField(required=False, allow_null=True, max_length=60)
    priceBeforeTax = StrictDecimalField(required=False, allow_null=True, **MONEY)
    status = serializers.ChoiceField(choices=WRITABLE_BOOKING_STATUSES, required=False)
    notes = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=5000)
    notifyCustomer = StrictBooleanField(required=False, default=False)

    def validate(self, attrs):
        if attrs["end_time"] <= attrs["start_time"]:
            raise serializers.ValidationError({"endTime": ["Must be after `startTime`."]})
        return attrs


class BookingUpdateSerializer(InputSerializer):
    """Area bookings: reschedule, price, sport, notes, status (pending -> confirmed). Class: notes, status, classId."""

    areaId = OrganizationObjectField(model=Area, required=False)
    startTime = BoundedDateTimeField(required=False)
    endTime = BoundedDateTimeField(required=False)
    priceBeforeTax = StrictDecimalField(required=False, **MONEY)
    sport = StrictCharField(required=False, allow_null=True, max_length=60)
    notes = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=5000)
    status = serializers.ChoiceField(
        choices=WRITABLE_BOOKING_STATUSES,
        required=False,
        error_messages={"invalid_choice": "Only `confirmed` (from `pending`) can be set; use /cancel or check-ins."},
    )
    classId = OrganizationObjectField(model=ClassOccurrence, source="class_occurrence", required=False)
    notifyCustomer = StrictBooleanField(required=False, default=False)


class CancelSerializer(InputSerializer):
    reason = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=1000)
    notifyCustomer = StrictBooleanField(required=False, default=False)


class PaymentReportFieldsSerializer(InputSerializer):
    paidAmount = StrictDecimalField(**MONEY)
    refundedAmount = StrictDecimalField(required=False, **MONEY)
    reference = StrictCharField(max_length=255)
    fee = StrictDecimalField(required=False, **MONEY)
    paidAt = BoundedDateTimeField(required=False)


class PaymentReportSerializer(InputSerializer):
    payment = PaymentReportFieldsSerializer()


class ChannelContactSerializer(InputSerializer):
    firstName = StrictCharField(max_length=120)
    lastName = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=120)
    email = StrictEmailField(required=False, allow_null=True, allow_blank=True, max_length=254)
    phone = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=40)

    def validate(self, attrs):
        return {k: (v or None) if k != "first_name" else v for k, v in attrs.items()}


class ChannelBookingCreateSerializer(InputSerializer):
    externalSource = StrictRegexField(r"^[a-z0-9_-]{1,40}$", max_length=40)
    externalId = StrictCharField(max_length=100)
    type = serializers.ChoiceField(choices=CHANNEL_BOOKING_TYPES, required=False, default=BookingType.AREA)
    areaId = OrganizationObjectField(model=Area, required=False)
    startTime = BoundedDateTimeField(required=False)
    endTime = BoundedDateTimeField(required=False)
    classId = OrganizationObjectField(model=ClassOccurrence, source="class_occurrence", required=False)
    contactId = OrganizationObjectField(model=Contact, required=False)
    contact = ChannelContactSerializer(source="new_contact", required=False)
    players = player_list()
    priceBeforeTax = StrictDecimalField(required=False, allow_null=True, **MONEY)
    notes = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=5000)
    payment = PaymentReportFieldsSerializer(required=False)

    def validate(self, attrs):
        errors = {}
        if attrs["type"] == BookingType.AREA:
            for field, name in (("area", "areaId"), ("start_time", "startTime"), ("end_time", "endTime")):
                if field not in attrs:
                    errors[name] = ["Required for an `area` booking."]
            if not errors and attrs["end_time"] <= attrs["start_time"]:
                errors["endTime"] = ["Must be after `startTime`."]
        elif "class_occurrence" not in attrs:
            errors["classId"] = ["Required for a `class` booking."]
        if ("contact" in attrs) == ("new_contact" in attrs):
            errors["contactId"] = ["Send exactly one of `contactId` or `contact`."]
        if errors:
            raise serializers.ValidationError(errors)
        return attrs
