"""An archived contact gives up its future bookings and waitlist places (receiver of `contact_archived`)."""

from django.dispatch import receiver

from apps.contacts.signals import contact_archived

from . import class_services, services
from .choices import ACTIVE_WAITLIST_STATUSES, OPEN_BOOKING_STATUSES
from .models import Booking, WaitlistEntry


@receiver(contact_archived, dispatch_uid="bookings.cancel_for_archived_contact")
def cancel_for_archived_contact(sender, *, contact, reason, now, **kwargs):
    """Runs inside the archive transaction. Bookings are cancelled through `cancel_booking` so freed class seats
    notify the waitlist and every cancellation emits its own event."""
    bookings = Booking.objects.filter(contact=contact, start_time__gt=now, status__in=OPEN_BOOKING_STATUSES)
    for booking in bookings.order_by("start_time", "id"):
        services.cancel_booking(booking, reason=reason or "Contact archived")

    # A waitlist entry is a claim on a future seat: leaving it would let a promote book an archived contact.
    entries = WaitlistEntry.objects.filter(
        contact=contact, status__in=ACTIVE_WAITLIST_STATUSES, class_occurrence__start_time__gt=now
    ).order_by("class_occurrence_id", "id")
    for entry in entries:
        class_services.remove_waitlist_entry(entry)
