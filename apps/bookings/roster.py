"""Response shapes of the class roster (Class booking rows), waitlist entries and check-ins.

Plain functions over querysets with `select_related("contact")`: no query per row. `ctx` carries what depends on
the request: `can_read_contacts` (the credential also holds `contacts:read`; otherwise embedded e-mails are null),
the same key as `apps.bookings.presenters.booking_context`.
"""

from apps.bookings.presenters import present_payment


def presenter_context(request=None) -> dict:
    """The `ctx` of the presenters below for a request; without one (event payloads) e-mails are hidden."""
    credential = getattr(request, "auth", None)
    return {"can_read_contacts": bool(credential is not None and credential.has_scope("contacts:read"))}


def _contact_email(contact, ctx) -> str | None:
    if contact is None or not ctx.get("can_read_contacts"):
        return None
    return contact.email


def present_class_booking(booking, ctx) -> dict:
    """The spec's Class booking (one roster row per person)."""
    contact = booking.contact
    return {
        "bookingId": booking.id,
        "classId": booking.class_occurrence_id,
        "contactId": booking.contact_id,
        "contactName": contact.name if contact is not None else None,
        "bookerName": booking.booker_name,
        "contactEmail": _contact_email(contact, ctx),
        "status": booking.status,
        "source": booking.source,
        "startTime": booking.start_time,
        "endTime": booking.end_time,
        "checkedIn": booking.checked_in_at is not None,
        "checkedInAt": booking.checked_in_at,
        "membershipId": booking.membership_id,
        "entranceMethod": booking.entrance_method,
        "payment": present_payment(booking),
        "notes": booking.notes,
        "createdAt": booking.created_at,
    }


def present_waitlist_entry(entry, ctx) -> dict:
    """API.md §6 WaitlistEntry."""
    contact = entry.contact
    return {
        "id": entry.id,
        "classId": entry.class_occurrence_id,
        "contactId": entry.contact_id,
        "contactName": contact.name if contact is not None else None,
        "contactEmail": _contact_email(contact, ctx),
        "position": entry.position,
        "status": entry.status,
        "bookingId": entry.booking_id,
        "notes": entry.notes,
        "notifiedAt": entry.notified_at,
        "createdAt": entry.created_at,
    }


def present_checkin(checkin, ctx=None) -> dict:
    """API.md §6 CheckIn."""
    contact = checkin.contact
    return {
        "id": checkin.id,
        "method": checkin.method,
        "bookingId": checkin.booking_id,
        "membershipId": checkin.membership_id,
        "classId": checkin.class_occurrence_id,
        "clubId": checkin.club_id,
        "contactId": checkin.contact_id,
        "contactName": contact.name if contact is not None else None,
        "source": checkin.source,
        "checkedInAt": checkin.checked_in_at,
        "createdAt": checkin.created_at,
    }
