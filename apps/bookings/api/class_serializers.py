"""Input validation of class seats, waitlist and check-ins, plus response shapes declared for the OpenAPI document.

Responses are built by the presenters in `apps/bookings/roster.py`; the `*Response` serializers below only
describe them.
"""

from rest_framework import serializers

from apps.api.fields import OrganizationObjectField, StrictBooleanField, StrictCharField
from apps.billing.models import Membership
from apps.classes.models import ClassOccurrence
from apps.clubs.models import Club
from apps.contacts.models import Contact

from ..models import Booking
from .serializers import BoundedDateTimeField


class ActiveContactField(OrganizationObjectField):
    """A contact id of the caller's organization that is not archived."""

    default_error_messages = {"archived": "The contact is archived."}

    def to_internal_value(self, data):
        contact = super().to_internal_value(data)
        if contact.status != Contact.ACTIVE:
            self.fail("archived")
        return contact


class ClassBookingCreateSerializer(serializers.Serializer):
    contactId = ActiveContactField(model=Contact, source="contact")
    membershipId = OrganizationObjectField(model=Membership, source="membership", required=False, allow_null=True)
    status = serializers.ChoiceField(choices=["confirmed", "pending"], default="confirmed")
    notes = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=5000)
    notifyCustomer = StrictBooleanField(required=False, default=False, source="notify_customer")


class WaitlistJoinSerializer(serializers.Serializer):
    contactId = ActiveContactField(model=Contact, source="contact")
    notes = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=5000)


class WaitlistPromoteSerializer(serializers.Serializer):
    membershipId = OrganizationObjectField(model=Membership, source="membership", required=False, allow_null=True)
    notes = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=5000)
    notifyCustomer = StrictBooleanField(required=False, default=False, source="notify_customer")


class CheckInCreateSerializer(serializers.Serializer):
    """Exactly one of `bookingId` (check in a booking) or `membershipId` (a walk-in on a membership)."""

    bookingId = OrganizationObjectField(model=Booking, source="booking", required=False, allow_null=True)
    membershipId = OrganizationObjectField(model=Membership, source="membership", required=False, allow_null=True)
    classId = OrganizationObjectField(model=ClassOccurrence, source="occurrence", required=False, allow_null=True)
    clubId = OrganizationObjectField(model=Club, source="club", required=False, allow_null=True)
    checkedInAt = BoundedDateTimeField(source="checked_in_at", required=False, allow_null=True)

    def validate(self, attrs):
        booking, membership = attrs.get("booking"), attrs.get("membership")
        if (booking is None) == (membership is None):
            raise serializers.ValidationError(
                {"nonFieldErrors": ["Send exactly one of `bookingId` (a booking) or `membershipId` (a walk-in)."]}
            )
        if booking is not None:
            extra = [name for name, key in (("classId", "occurrence"), ("clubId", "club")) if attrs.get(key)]
            if extra:
                raise serializers.ValidationError({name: ["Only allowed with `membershipId`."] for name in extra})
            return attrs
        occurrence, club = attrs.get("occurrence"), attrs.get("club")
        if occurrence is None and club is None:
            raise serializers.ValidationError({"clubId": ["Required for a walk-in without `classId`."]})
        if occurrence is not None and club is not None and occurrence.club_id != club.pk:
            raise serializers.ValidationError({"clubId": ["The class takes place at another club."]})
        return attrs


# --- response shapes (documentation only) ------------------------------------------------------------------------


class PaymentResponse(serializers.Serializer):
    status = serializers.ChoiceField(choices=["paid", "unpaid", "no_charge"])
    amount = serializers.FloatField(allow_null=True)
    paidAmount = serializers.FloatField(help_text="Gross collected before refunds, 0 when none.")
    refundedAmount = serializers.FloatField(help_text="Total across refunds; kept = paid - refunded.")
    reference = serializers.CharField(allow_null=True, help_text="The collecting partner's own payment id.")
    fee = serializers.FloatField(allow_null=True, help_text="What the partner kept.")


class ClassBookingResponse(serializers.Serializer):
    bookingId = serializers.IntegerField()
    classId = serializers.IntegerField()
    contactId = serializers.IntegerField(allow_null=True, help_text="Null for an anonymous seat.")
    contactName = serializers.CharField(allow_null=True)
    bookerName = serializers.CharField(allow_null=True, help_text="Who paid, for an anonymous seat sold in an order.")
    contactEmail = serializers.CharField(allow_null=True, help_text="Null unless the credential holds contacts:read.")
    status = serializers.ChoiceField(choices=["confirmed", "pending", "checked_in", "cancelled"])
    source = serializers.CharField(allow_null=True)
    startTime = serializers.DateTimeField()
    endTime = serializers.DateTimeField()
    checkedIn = serializers.BooleanField()
    checkedInAt = serializers.DateTimeField(allow_null=True)
    membershipId = serializers.IntegerField(allow_null=True)
    entranceMethod = serializers.ChoiceField(
        choices=["direct_payment", "membership", "external_program"], allow_null=True
    )
    payment = PaymentResponse()
    notes = serializers.CharField(allow_null=True)
    createdAt = serializers.DateTimeField()


class WaitlistEntryResponse(serializers.Serializer):
    id = serializers.IntegerField()
    classId = serializers.IntegerField()
    contactId = serializers.IntegerField()
    contactName = serializers.CharField(allow_null=True)
    contactEmail = serializers.CharField(allow_null=True, help_text="Null unless the credential holds contacts:read.")
    position = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["pending", "notified", "promoted", "removed", "expired"])
    bookingId = serializers.IntegerField(allow_null=True)
    notes = serializers.CharField(allow_null=True)
    notifiedAt = serializers.DateTimeField(allow_null=True)
    createdAt = serializers.DateTimeField()


class CheckInResponse(serializers.Serializer):
    id = serializers.IntegerField()
    method = serializers.ChoiceField(choices=["booking", "membership"])
    bookingId = serializers.IntegerField(allow_null=True)
    membershipId = serializers.IntegerField(allow_null=True)
    classId = serializers.IntegerField(allow_null=True)
    clubId = serializers.IntegerField()
    contactId = serializers.IntegerField(allow_null=True)
    contactName = serializers.CharField(allow_null=True)
    source = serializers.CharField()
    checkedInAt = serializers.DateTimeField()
    createdAt = serializers.DateTimeField()
