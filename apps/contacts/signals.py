from django.dispatch import Signal

# Sent by `archive_contact` inside its transaction, after the contact row is archived, before `contact.archived` is
# emitted. Apps holding the contact's claims (memberships, future bookings, waitlist entries) cancel them in the
# receiver; a receiver's error rolls the whole archive back.
# Arguments: contact, reason, now.
contact_archived = Signal()
