"""Input validation of events, their tickets and event bookings (responses: `apps.events.resources`).
`translations`, `slug`, `status`, counts and the tax-inclusive `price` are read-only (ignored like unknown fields)."""

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from apps.api.fields import (
    BoundedDateTimeField,
    InputSerializer,
    OrganizationObjectField,
    StrictBooleanField,
    StrictCharField,
    StrictDecimalField,
    StrictIntegerField,
    StrictURLField,
)
from apps.bookings.api.class_serializers import ActiveContactField
from apps.classes.choices import Visibility
from apps.clubs.models import Club
from apps.contacts.models import Contact

MAX_TICKET_TYPES = 50


@extend_schema_serializer(component_name="EventTicketInput")
class EventTicketInputSerializer(InputSerializer):
    """One ticket type. In a PATCH the list replaces the stored one: an item with `id` keeps that ticket (its
    fields replaced), an item without creates one, a ticket left out is removed (409 once it has sales)."""

    id = StrictIntegerField(min_value=1, required=False, help_text="An existing ticket of this event (PATCH).")
    name = StrictCharField(max_length=120)
    priceBeforeTax = StrictDecimalField(max_digits=10, decimal_places=2, min_value=0)
    quantity = StrictIntegerField(
        min_value=0, required=False, allow_null=True, help_text="Tickets of this type for sale; null: no own limit."
    )
    salesStart = BoundedDateTimeField(required=False, allow_null=True)
    salesEnd = BoundedDateTimeField(required=False, allow_null=True)

    def validate(self, attrs):
        # Inside a PATCH DRF makes every nested field optional: a ticket item is whole all the same.
        missing = {
            api: ["This field is required."]
            for api, name in (("name", "name"), ("priceBeforeTax", "price_before_tax"))
            if name not in attrs
        }
        if missing:
            raise serializers.ValidationError(missing)
        start, end = attrs.get("sales_start"), attrs.get("sales_end")
        if start is not None and end is not None and end <= start:
            raise serializers.ValidationError({"salesEnd": ["Must be after `salesStart`."]})
        return attrs


@extend_schema_serializer(component_name="EventCreate")
class EventCreateSerializer(InputSerializer):
    """POST body: `name`, `clubId`, `startTime` and `endTime` are required. Created as `draft`."""

    name = StrictCharField(max_length=200)
    clubId = OrganizationObjectField(model=Club)
    startTime = BoundedDateTimeField()
    endTime = BoundedDateTimeField()
    description = StrictCharField(max_length=20000, required=False, allow_null=True, allow_blank=True)
    visibility = serializers.ChoiceField(choices=Visibility.choices, required=False)
    capacity = StrictIntegerField(
        min_value=1, required=False, allow_null=True, help_text="Attendees at most (every ticket type); null: uncapped."
    )
    images = serializers.ListField(child=StrictURLField(max_length=2048), max_length=20, required=False)
    tickets = serializers.ListField(child=EventTicketInputSerializer(), max_length=MAX_TICKET_TYPES, required=False)

    def validate_tickets(self, items):
        if not self.partial:
            for item in items:
                item.pop("id", None)  # a new event's tickets are all new
        return items


@extend_schema_serializer(component_name="EventUpdate")
class EventUpdateSerializer(EventCreateSerializer):
    """PATCH body: every field optional. `tickets` replaces the list, tickets matched by `id`."""


class EventCancelSerializer(InputSerializer):
    reason = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=2000)
    notifyCustomer = StrictBooleanField(required=False, default=False)


class EventBookingCreateSerializer(InputSerializer):
    """One person per call."""

    contactId = ActiveContactField(model=Contact)
    ticketId = StrictIntegerField(min_value=1, help_text="One of the event's tickets.")
    quantity = StrictIntegerField(
        min_value=1,
        max_value=1,
        required=False,
        help_text="Only 1: a booking is one person. Book each attendee with their own call.",
    )
    notes = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=5000)
