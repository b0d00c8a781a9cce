"""The charge of a priced booking: created in the booking's own transaction, and the partner's payment reports
mirrored on it. Called by the bookings services (this app sits below bookings and never imports them).

Nothing is charged to anyone: the charge records what the booking costs and what the partner reports collected.
"""

from decimal import Decimal

from django.utils import timezone

from apps.api.resources import camel_case
from apps.billing.revenue_accounts import default_account
from apps.domain_events.services import emit
from apps.kernel.money import currency_exponent, round_money

from .choices import TransactionPaymentStatus, TransactionSourceType, TransactionType
from .models import Transaction
from .services import payload

ZERO = Decimal("0")
MIRRORED_FIELDS = (
    "amount",
    "tax_amount",
    "club_id",
    "description",
    "paid_amount",
    "refunded_amount",
    "payment_status",
    "reference",
    "paid_at",
)


def charge_status(amount, paid, refunded) -> str:
    """The charge's payment status from the booking's totals (refunds first, then what was paid)."""
    paid, refunded = paid or ZERO, refunded or ZERO
    if refunded > 0:
        return TransactionPaymentStatus.REFUNDED if refunded >= paid else TransactionPaymentStatus.PARTIALLY_REFUNDED
    if paid >= amount:
        return TransactionPaymentStatus.PAID
    if paid > 0:
        return TransactionPaymentStatus.PARTIALLY_PAID
    return TransactionPaymentStatus.UNPAID


def _mirror(charge: Transaction, booking) -> None:
    charge.paid_amount = booking.paid_amount or ZERO
    charge.refunded_amount = booking.refunded_amount or ZERO
    nothing_collected = charge.paid_amount == 0 and charge.refunded_amount == 0
    if not (charge.payment_status == TransactionPaymentStatus.VOID and nothing_collected):
        charge.payment_status = charge_status(charge.amount, charge.paid_amount, charge.refunded_amount)
    charge.reference = booking.payment_reference
    charge.paid_at = booking.paid_at


def _amounts(organization, booking) -> tuple[Decimal, Decimal]:
    """(amount, tax) of the booking's charge at the organization's currency precision."""
    exponent = currency_exponent(organization.currency)
    amount = round_money(Decimal(booking.payment_amount or 0), exponent)
    tax = ZERO
    if booking.price_before_tax is not None and amount > 0:
        tax = max(ZERO, amount - round_money(Decimal(booking.price_before_tax), exponent))
    return amount, tax


def record_booking_charge(
    organization, booking, description: str, *, source_type=TransactionSourceType.BOOKING
) -> Transaction | None:
    """The charge of `booking` (its tax-inclusive `payment_amount`, the default sales account now), with the
    payment totals it already has; none when the booking costs nothing. Run inside the booking's transaction.
    `source_type`: `event` for an event ticket, else `booking`."""
    if not booking.payment_amount or booking.payment_amount <= 0:
        return None
    amount, tax = _amounts(organization, booking)
    account = default_account(organization)
    charge = Transaction(
        organization=organization,
        type=TransactionType.CHARGE,
        source_type=source_type,
        description=description[:500],
        contact_id=booking.contact_id,
        club_id=booking.club_id,
        booking_id=booking.pk,
        membership_id=booking.membership_id,
        revenue_account_id=getattr(account, "pk", None),
        amount=amount,
        tax_amount=tax,
        occurred_at=timezone.now(),
    )
    _mirror(charge, booking)
    charge.save(force_insert=True)
    emit(organization, "transaction.created", lambda: payload(organization, charge.pk))
    return charge


def _locked_charge(booking) -> Transaction | None:
    return (
        Transaction.objects.select_for_update()
        .filter(booking_id=booking.pk, type=TransactionType.CHARGE)
        .order_by("id")
        .first()
    )


def _save_changes(charge: Transaction, before: dict) -> None:
    changed = [name for name in MIRRORED_FIELDS if getattr(charge, name) != before[name]]
    if not changed:
        return
    charge.save(update_fields=[*changed, "updated_at"])
    emit(
        charge.organization_id,
        "transaction.updated",
        lambda: payload(charge.organization_id, charge.pk),
        [camel_case(name) for name in changed],
    )


def void_booking_charge(booking) -> None:
    """A cancelled booking's charge becomes `void` when nothing was collected on it (what was paid stays, for the
    partner's refund report to settle). Run inside the cancellation's transaction."""
    charge = _locked_charge(booking)
    if charge is None or charge.paid_amount != 0 or charge.refunded_amount != 0:
        return
    before = {name: getattr(charge, name) for name in MIRRORED_FIELDS}
    charge.payment_status = TransactionPaymentStatus.VOID
    _save_changes(charge, before)


def reprice_booking_charge(organization, booking, description: str) -> None:
    """After a booking's price or area changed: its charge follows (amount, tax, club, description; `void` when it
    became free with nothing collected), or is created when a free booking became priced."""
    charge = _locked_charge(booking)
    if charge is None:
        record_booking_charge(organization, booking, description)
        return
    before = {name: getattr(charge, name) for name in MIRRORED_FIELDS}
    charge.amount, charge.tax_amount = _amounts(organization, booking)
    charge.club_id = booking.club_id
    charge.description = description[:500]
    if charge.payment_status == TransactionPaymentStatus.VOID and charge.amount > 0:
        charge.payment_status = TransactionPaymentStatus.UNPAID  # priced again: recomputed below
    _mirror(charge, booking)
    if charge.amount == 0 and charge.paid_amount == 0 and charge.refunded_amount == 0:
        charge.payment_status = TransactionPaymentStatus.VOID
    _save_changes(charge, before)


def mirror_booking_payment(booking) -> None:
    """Copy the booking's payment totals to its charge (row-locked) and emit `transaction.updated` when they
    changed. Run inside the booking's transaction, after the booking is saved."""
    charge = _locked_charge(booking)
    if charge is None:
        return
    before = {name: getattr(charge, name) for name in MIRRORED_FIELDS}
    _mirror(charge, booking)
    _save_changes(charge, before)
