"""Payloads of the booking domain events, shared by area bookings, class seats and check-ins."""

from apps.domain_events.services import emit
from apps.organizations.models import Organization

from .resources import BOOKING


def emit_booking(booking, type_, changed_fields=None):
    """`type_` with the Booking as GET returns it, built from the row just written, presented with every scope
    (webhooks and the event feed redact it to their reader's)."""

    def build():
        return BOOKING.event_body(Organization.objects.get(bookings=booking.id), booking.id)

    emit(booking.organization_id, type_, build, changed_fields=changed_fields)
