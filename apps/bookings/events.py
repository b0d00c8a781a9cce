"""Payloads of the booking domain events, shared by area bookings, class seats and check-ins."""

from apps.domain_events.services import emit
from apps.organizations.models import Organization

from .models import Booking
from .resources import BOOKING, event_context


def booking_event_data(booking_id):
    """The Booking as GET returns it, built from the row just written, rendered without `contacts:read` (e-mails
    null)."""

    def build():
        organization = Organization.objects.get(bookings=booking_id)
        return BOOKING.get(Booking.objects.all(), booking_id, event_context(organization))

    return build


def emit_booking(booking, type_, changed_fields=None):
    emit(booking.organization_id, type_, booking_event_data(booking.id), changed_fields=changed_fields)
