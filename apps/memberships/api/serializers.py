"""Request bodies of selling a membership, setting its price and paid state, pausing and cancelling it."""

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from apps.api.fields import (
    BoundedDateField,
    InputSerializer,
    OrganizationObjectField,
    StrictCharField,
    StrictDecimalField,
)
from apps.billing.models import Plan
from apps.contacts.models import Contact

from ..choices import CancelEffective, MembershipPaymentStatus

MONEY = {"max_digits": 10, "decimal_places": 2, "min_value": 0}
NOTES_MAX = 5000
REASON_MAX = 1000


@extend_schema_serializer(component_name="MembershipCreate")
class MembershipCreateSerializer(InputSerializer):
    """POST body (sell): `contactId` and `planId` are required. No payment is taken."""

    contactId = OrganizationObjectField(model=Contact, help_text="An active contact.")
    planId = OrganizationObjectField(model=Plan, help_text="An active (not retired) plan.")
    startDate = BoundedDateField(
        required=False,
        help_text="Default today on the membership's clock (the plan's club, else the organization's time zone); at "
        "most 366 days before or after today. A back-dated sale of an auto-renewing plan bills the period that "
        "contains today (the periods before it are not billed).",
    )
    price = StrictDecimalField(**MONEY, required=False, help_text="Per period, tax-inclusive. Default the plan's.")
    signupFee = StrictDecimalField(
        **MONEY,
        required=False,
        help_text="Charged once with the first period. Default the plan's.",
    )
    paymentStatus = serializers.ChoiceField(
        choices=MembershipPaymentStatus.choices,
        required=False,
        help_text="`unpaid` (default) or `paid`: the first period's charges are recorded as paid in full.",
    )
    notes = StrictCharField(max_length=NOTES_MAX, required=False, allow_null=True, allow_blank=True)


@extend_schema_serializer(component_name="MembershipUpdate")
class MembershipUpdateSerializer(InputSerializer):
    """PATCH body: set the price and the paid state."""

    price = StrictDecimalField(**MONEY, required=False, help_text="Charged from the next period on.")
    paymentStatus = serializers.ChoiceField(
        choices=MembershipPaymentStatus.choices,
        required=False,
        help_text="The latest billed period's charges follow: paid in full, or back to unpaid.",
    )
    endDate = BoundedDateField(
        required=False,
        allow_null=True,
        help_text="The last day covered; not before `startDate` and at most 10 years after today. Only while active "
        "or paused.",
    )
    notes = StrictCharField(max_length=NOTES_MAX, required=False, allow_null=True, allow_blank=True)


@extend_schema_serializer(component_name="MembershipPause")
class MembershipPauseSerializer(InputSerializer):
    resumeDate = BoundedDateField(
        required=False,
        allow_null=True,
        help_text="After today: the membership is resumed on that day. Omitted: paused until `/resume`.",
    )


@extend_schema_serializer(component_name="MembershipCancel")
class MembershipCancelSerializer(InputSerializer):
    effective = serializers.ChoiceField(
        choices=CancelEffective.choices,
        required=False,
        default=CancelEffective.IMMEDIATELY,
        help_text="`immediately` (default), or `end_of_period`: the status stays and `cancelAt` is set to the day "
        "after the current period's end. A period billed ahead (renewal in advance) that has not started and on "
        "which nothing was paid is withdrawn: its charge becomes `void` and `endDate` moves back.",
    )
    reason = StrictCharField(max_length=REASON_MAX, required=False, allow_null=True, allow_blank=True)

    def validate_reason(self, value):
        return (value or "").strip() or None
