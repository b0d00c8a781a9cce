"""Payment reports of a partner (channel, REST): absolute totals applied to a booking, mirrored on its charge, and
followed by any invoice listing that charge."""

from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from apps.invoices.services import refresh_invoice_payment
from apps.transactions.booking_charges import mirror_booking_payment
from apps.transactions.models import Transaction

from .choices import BookingStatus, PaymentStatus
from .events import emit_booking
from .models import Booking


def refresh_booking_invoices(booking) -> None:
    """An invoice listing the booking's charge follows the charge: `amountPaid` and `status` (a voided charge voids
    an invoice of it alone), `invoice.updated` when they change."""
    invoice_ids = (
        Transaction.objects.filter(booking_id=booking.pk, invoice_id__isnull=False)
        .order_by("invoice_id")
        .values_list("invoice_id", flat=True)
        .distinct()
    )
    for invoice_id in list(invoice_ids):
        refresh_invoice_payment(invoice_id)


def _payment_state(booking) -> tuple:
    """The payment fields a report may change; `payment` changed when they differ before and after."""
    return (
        booking.paid_amount,
        booking.refunded_amount,
        booking.payment_reference,
        booking.payment_fee,
        booking.payment_status,
        booking.paid_at,
    )


def apply_payment_report(
    booking, *, paid_amount, reference, refunded_amount=None, fee=None, paid_at=None, emit_event=True
) -> Booking:
    """Absolute totals reported by a partner; retrying with the same values changes nothing.

    `payment.status` becomes `paid` once paidAmount >= amount; a `no_charge` seat stays `no_charge`. A `pending`
    booking that becomes paid is confirmed (pending -> confirmed by PATCH or payment).
    """
    with transaction.atomic():
        booking = Booking.objects.select_for_update().get(pk=booking.pk)
        before = _payment_state(booking)
        booking.paid_amount = paid_amount
        if refunded_amount is not None:
            booking.refunded_amount = refunded_amount
        booking.payment_reference = reference
        if fee is not None:
            booking.payment_fee = fee
        if paid_at is not None:
            booking.paid_at = paid_at
        if booking.payment_status != PaymentStatus.NO_CHARGE:
            amount = booking.payment_amount or Decimal("0")
            paid_in_full = Decimal(paid_amount) >= amount
            booking.payment_status = PaymentStatus.PAID if paid_in_full else PaymentStatus.UNPAID
        if booking.payment_status == PaymentStatus.PAID and booking.paid_at is None:
            booking.paid_at = timezone.now()
        changed = ["payment"] if _payment_state(booking) != before else []
        if booking.status == BookingStatus.PENDING and booking.payment_status == PaymentStatus.PAID:
            booking.status = BookingStatus.CONFIRMED
            changed.append("status")
        if changed:
            booking.save()
            mirror_booking_payment(booking)
            refresh_booking_invoices(booking)
            if emit_event:
                emit_booking(booking, "booking.updated", changed)
    return booking
