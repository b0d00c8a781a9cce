"""Domain operations on transactions: revenue collected outside the service and its refunds. Nothing here charges
or pays out anyone; these only record what happened elsewhere.

Amounts are rounded half-up at the organization's currency precision (JPY 0, KWD 3, else 2). A refund locks the
refunded row, so concurrent refunds are applied one after the other and never exceed what is left of it.
"""

from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from apps.api.exceptions import Conflict, ValidationFailed
from apps.billing.revenue_accounts import default_account
from apps.domain_events.services import emit_many
from apps.kernel.money import currency_exponent, round_money

from .choices import TransactionPaymentStatus, TransactionSourceType, TransactionType
from .models import Transaction
from .resources import TRANSACTION


class NotExternalRevenue(Conflict):
    code = "NOT_EXTERNAL_REVENUE"


class RefundExceedsBalance(Conflict):
    code = "REFUND_EXCEEDS_BALANCE"


def rounded_amount(organization, value: Decimal, field: str = "amount") -> Decimal:
    """`value` at the organization's currency precision; 400 when that leaves nothing (must stay above 0)."""
    amount = round_money(Decimal(value), currency_exponent(organization.currency))
    if amount <= 0:
        raise ValidationFailed({field: [f"Must be greater than 0 in {organization.currency}."]})
    return amount


# The event body of a transaction: the API's Transaction, presented for an event (every scope).
payload = TRANSACTION.event_body


@transaction.atomic
def record_external_revenue(organization, data: dict) -> Transaction:
    """`data` holds model field names (validated input). Paid in full at `occurred_at` (default now)."""
    data = dict(data)
    amount = rounded_amount(organization, data.pop("amount"))
    occurred_at = data.pop("occurred_at", None) or timezone.now()
    if data.get("revenue_account") is None:
        data["revenue_account"] = default_account(organization)
    record = Transaction.objects.create(
        organization=organization,
        type=TransactionType.EXTERNAL_REVENUE,
        source_type=TransactionSourceType.EXTERNAL,
        amount=amount,
        paid_amount=amount,
        payment_status=TransactionPaymentStatus.PAID,
        occurred_at=occurred_at,
        paid_at=occurred_at,
        **data,
    )
    emit_many(organization, [("transaction.created", lambda: payload(organization, record.pk), None)])
    return record


@transaction.atomic
def refund_external_revenue(organization, original: Transaction, data: dict) -> Transaction:
    """A `refund` record of part or all of what is left of `original` (outside revenue), under its row lock."""
    locked = Transaction.objects.select_for_update().get(pk=original.pk)
    if locked.type != TransactionType.EXTERNAL_REVENUE:
        raise NotExternalRevenue(
            "Only revenue recorded through POST /transactions can be refunded here.",
            details={"type": locked.type},
        )
    amount = rounded_amount(organization, data["amount"])
    remaining = locked.amount - locked.refunded_amount
    if amount > remaining:
        raise RefundExceedsBalance(
            f"The refund of {amount} exceeds the {remaining} left to refund.",
            details={"refundable": float(remaining)},
        )
    occurred_at = data.get("occurred_at") or timezone.now()
    refund = Transaction.objects.create(
        organization=organization,
        type=TransactionType.REFUND,
        source_type=TransactionSourceType.EXTERNAL,
        description=data.get("reason") or f"Refund of transaction {locked.pk}",
        club_id=locked.club_id,
        revenue_account_id=locked.revenue_account_id,
        refund_of=locked,
        amount=amount,
        refunded_amount=amount,
        payment_status=TransactionPaymentStatus.REFUNDED,
        payment_method=locked.payment_method,
        occurred_at=occurred_at,
        paid_at=occurred_at,
    )
    locked.refunded_amount += amount
    locked.payment_status = (
        TransactionPaymentStatus.REFUNDED
        if locked.refunded_amount == locked.amount
        else TransactionPaymentStatus.PARTIALLY_REFUNDED
    )
    locked.save(update_fields=["refunded_amount", "payment_status", "updated_at"])
    emit_many(
        organization,
        [
            ("transaction.created", lambda: payload(organization, refund.pk), None),
            (
                "transaction.refunded",
                lambda: payload(organization, locked.pk),
                ["refundedAmount", "paymentStatus"],
            ),
        ],
    )
    return refund
