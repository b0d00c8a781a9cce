"""Input validation of class seats, waitlist and check-ins (responses: `apps.bookings.resources`)."""

from rest_framework import serializers

from apps.api.fields import InputSerializer, OrganizationObjectField, StrictBooleanField, StrictCharField
from apps.classes.models import ClassOccurrence
from apps.clubs.models import Club
from apps.contacts.choices import ContactStatus
from apps.contacts.models import Contact
from apps.memberships.models import Membership

from ..choices import (
    WRITABLE_BOOKING_STATUSES,
    BookingStatus,
)
from ..models import Booking
from .serializers import BoundedDateTimeField


class ActiveContactField(OrganizationObjectField):
    """A contact id of the caller's organization that is not archived."""

    default_error_messages = {"archived": "The contact is archived."}

    def to_internal_value(self, data):
        contact = super().to_internal_value(data)
        if contact.status != ContactStatus.ACTIVE:
            self.fail("archived")
        return contact


class ClassBookingCreateSerializer(InputSerializer):
    contactId = ActiveContactField(model=Contact)
    membershipId = OrganizationObjectField(model=Membership, required=False, allow_null=True)
    status = serializers.ChoiceField(choices=WRITABLE_BOOKING_STATUSES, default=BookingStatus.CONFIRMED)
    notes = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=5000)
    notifyCustomer = StrictBooleanField(required=False, default=False)


class WaitlistJoinSerializer(InputSerializer):
    contactId = ActiveContactField(model=Contact)
    notes = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=5000)


class WaitlistPromoteSerializer(InputSerializer):
    membershipId = OrganizationObjectField(model=Membership, required=False, allow_null=True)
    notes = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=5000)
    notifyCustomer = StrictBooleanField(required=False, default=False)


class CheckInCreateSerializer(InputSerializer):
    """Exactly one of `bookingId` (check in a booking) or `membershipId` (a walk-in on a membership)."""

    bookingId = OrganizationObjectField(model=Booking, required=False, allow_null=True)
    membershipId = OrganizationObjectField(model=Membership, required=False, allow_null=True)
    classId = OrganizationObjectField(model=ClassOccurrence, source="occurrence", required=False, allow_null=True)
    clubId = OrganizationObjectField(model=Club, required=False, allow_null=True)
    checkedInAt = BoundedDateTimeField(required=False, allow_null=True)

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
