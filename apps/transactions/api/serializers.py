"""Input validation for recording outside revenue and refunding it."""

from decimal import Decimal

from drf_spectacular.utils import extend_schema_serializer

from apps.api.fields import (
    BoundedDateTimeField,
    InputSerializer,
    OrganizationObjectField,
    StrictCharField,
    StrictDecimalField,
)
from apps.billing.models import RevenueAccount
from apps.clubs.models import Club

MAX_AMOUNT = Decimal("9999999999.999")


def amount_field(help_text):
    return StrictDecimalField(
        max_digits=13,
        decimal_places=None,
        min_value=Decimal("0"),
        max_value=MAX_AMOUNT,
        help_text=help_text,
    )


@extend_schema_serializer(component_name="ExternalRevenueCreate")
class ExternalRevenueCreateSerializer(InputSerializer):
    """POST body: `amount` (> 0) and `description` are required."""

    blank_is_null = ("reference", "payment_method")
    amount = amount_field("Greater than 0; rounded half-up at the organization's currency precision.")
    description = StrictCharField(max_length=500)
    occurredAt = BoundedDateTimeField(required=False, help_text="Default now.")
    revenueAccountId = OrganizationObjectField(
        model=RevenueAccount,
        active_only=True,
        required=False,
        allow_null=True,
        help_text="Null or omitted: the organization's default sales account now.",
    )
    clubId = OrganizationObjectField(model=Club, required=False, allow_null=True)
    reference = StrictCharField(max_length=120, required=False, allow_null=True, allow_blank=True)
    paymentMethod = StrictCharField(max_length=40, required=False, allow_null=True, allow_blank=True)


@extend_schema_serializer(component_name="TransactionRefund")
class TransactionRefundSerializer(InputSerializer):
    """POST body: `amount` (> 0) is required."""

    blank_is_null = ("reason",)
    amount = amount_field("Greater than 0 and at most what is left to refund; rounded like the original.")
    reason = StrictCharField(max_length=500, required=False, allow_null=True, allow_blank=True)
    occurredAt = BoundedDateTimeField(required=False, help_text="Default now.")
