"""Response shapes of bookings and players (plain functions over prefetched querysets: no per-row queries)."""

from apps.api.presenters import money


def present_payment(booking) -> dict:
    """The `payment` object shared by the Booking and the Class booking (roster row) shapes."""
    return {
        "status": booking.payment_status,
        "amount": money(booking.payment_amount),
        "paidAmount": money(booking.paid_amount) if booking.paid_amount is not None else 0.0,
        "refundedAmount": money(booking.refunded_amount) if booking.refunded_amount is not None else 0.0,
        "reference": booking.payment_reference,
        "fee": money(booking.payment_fee),
    }
