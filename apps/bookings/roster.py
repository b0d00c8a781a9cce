"""Response shapes of the class roster (Class booking rows), waitlist entries and check-ins.

Plain functions over value rows (`.values()` with the contact's columns joined): no model instances, no query per
row. `ctx` carries what depends on the request: `can_read_contacts` (the credential also holds `contacts:read`;
otherwise embedded e-mails are null), the same key as `apps.bookings.presenters.booking_context`.
"""

from apps.bookings.presenters import contact_name, present_payment

CONTACT_COLUMNS = ("contact_id", "contact__first_name", "contact__last_name", "contact__email")
CLASS_BOOKING_COLUMNS = (
    "id",
    "class_occurrence_id",
    *CONTACT_COLUMNS,
    "booker_name",
    "status",
    "source",
    "start_time",
    "end_time",
    "checked_in_at",
    "membership_id",
    "entrance_method",
    "payment_status",
    "payment_amount",
    "paid_amount",
    "refunded_amount",
    "payment_reference",
    "payment_fee",
    "notes",
    "created_at",
)
WAITLIST_COLUMNS = (
    "id",
    "class_occurrence_id",
    *CONTACT_COLUMNS,
    "position",
    "status",
    "booking_id",
    "notes",
    "notified_at",
    "created_at",
)
CHECKIN_COLUMNS = (
    "id",
    "method",
    "booking_id",
    "membership_id",
    "class_occurrence_id",
    "club_id",
    "contact_id",
    "contact__first_name",
    "contact__last_name",
    "source",
    "checked_in_at",
    "created_at",
)


def presenter_context(request=None) -> dict:
    """The `ctx` of the presenters below for a request; without one (event payloads) e-mails are hidden."""
    credential = getattr(request, "auth", None)
    return {"can_read_contacts": bool(credential is not None and credential.has_scope("contacts:read"))}


def _name(row):
    return contact_name(row["contact__first_name"], row["contact__last_name"]) if row["contact_id"] else None


def _email(row, ctx):
    return row["contact__email"] if row["contact_id"] and ctx.get("can_read_contacts") else None


def first_row(queryset, columns) -> dict:
    """The one value row of `queryset` (a single object's response, through the same presenter as its list)."""
    from apps.api.exceptions import NotFound

    row = queryset.values(*columns).first()
    if row is None:
        raise NotFound()
    return row


def present_class_booking(row, ctx) -> dict:
    """The spec's Class booking (one roster row per person), from a `CLASS_BOOKING_COLUMNS` row."""
    return {
        "bookingId": row["id"],
        "classId": row["class_occurrence_id"],
        "contactId": row["contact_id"],
        "contactName": _name(row),
        "bookerName": row["booker_name"],
        "contactEmail": _email(row, ctx),
        "status": row["status"],
        "source": row["source"],
        "startTime": row["start_time"],
        "endTime": row["end_time"],
        "checkedIn": row["checked_in_at"] is not None,
        "checkedInAt": row["checked_in_at"],
        "membershipId": row["membership_id"],
        "entranceMethod": row["entrance_method"],
        "payment": present_payment(row),
        "notes": row["notes"],
        "createdAt": row["created_at"],
    }


def present_waitlist_entry(row, ctx) -> dict:
    """API.md §6 WaitlistEntry, from a `WAITLIST_COLUMNS` row."""
    return {
        "id": row["id"],
        "classId": row["class_occurrence_id"],
        "contactId": row["contact_id"],
        "contactName": _name(row),
        "contactEmail": _email(row, ctx),
        "position": row["position"],
        "status": row["status"],
        "bookingId": row["booking_id"],
        "notes": row["notes"],
        "notifiedAt": row["notified_at"],
        "createdAt": row["created_at"],
    }


def present_checkin(row, ctx=None) -> dict:
    """API.md §6 CheckIn, from a `CHECKIN_COLUMNS` row."""
    return {
        "id": row["id"],
        "method": row["method"],
        "bookingId": row["booking_id"],
        "membershipId": row["membership_id"],
        "classId": row["class_occurrence_id"],
        "clubId": row["club_id"],
        "contactId": row["contact_id"],
        "contactName": _name(row),
        "source": row["source"],
        "checkedInAt": row["checked_in_at"],
        "createdAt": row["created_at"],
    }


EVENT_CTX = {"can_read_contacts": False}  # event payloads hide contact e-mails


def waitlist_event_data(entry_id):
    """The WaitlistEntry for `waitlist.*` events, built after commit from the committed row."""
    from .models import WaitlistEntry

    return lambda: present_waitlist_entry(first_row(WaitlistEntry.objects.filter(pk=entry_id), WAITLIST_COLUMNS), {})


def checkin_event_data(checkin_id):
    """The CheckIn for `checkin.created`, built after commit from the committed row."""
    from .models import CheckIn

    return lambda: present_checkin(first_row(CheckIn.objects.filter(pk=checkin_id), CHECKIN_COLUMNS))
