"""An archived contact's active and paused memberships are cancelled (receiver of `contact_archived`)."""

from django.dispatch import receiver

from apps.contacts.signals import contact_archived

from . import services


@receiver(contact_archived, dispatch_uid="memberships.cancel_for_archived_contact")
def cancel_for_archived_contact(sender, *, contact, reason, now, **kwargs):
    """Runs inside the archive transaction; each cancellation emits `membership.cancelled`. Restoring the contact
    does not undo it."""
    services.cancel_for_archived_contact(contact, reason=reason, now=now)
