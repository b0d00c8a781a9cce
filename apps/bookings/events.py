"""Payloads of the booking domain events, shared by area bookings, class seats and check-ins."""

from apps.domain_events.services import emit
from apps.organizations.models import Organization

from .resources import BOOKING


def booking_event_data(booking_id):
    """The Booking as GET returns it, built from the row just written, presented with every scope (webhooks and
    the event feed redact it to their reader's)."""
    return lambda: BOOKING.event_body(Organization.objects.get(bookings=booking_id), booking_id)


def emit_booking(booking, type_, changed_fields=None):
    emit(booking.organization_id, type_, booking_event_data(booking.id), changed_fields=changed_fields)
