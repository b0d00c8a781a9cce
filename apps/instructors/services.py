"""Domain operations on instructors (instructor types and pay-rate policies have no rule beyond their fields:
`apps.kernel.records` writes them).

Creating an instructor never creates an admin login and never sends a staff invitation: an instructor is a
contact who teaches, nothing more.
"""

from django.db import transaction

from apps.api.exceptions import DuplicateValue
from apps.clubs.choices import DayOfWeek
from apps.contacts import services as contact_services
from apps.contacts.models import Contact
from apps.domain_events.services import emit, emit_if_changed
from apps.kernel.records import set_fields

from .models import Instructor
from .resources import INSTRUCTOR


def normalize_availability(slots: list[dict]) -> list[dict]:
    """Validated slots as stored: API keys, ordered by day of week (sunday first) then start time."""
    cleaned = [
        {
            "dayOfWeek": s["dayOfWeek"],
            "startTime": s["startTime"],
            "endTime": s["endTime"],
            "clubId": s.get("clubId"),
        }
        for s in slots
    ]
    days = DayOfWeek.values
    return sorted(cleaned, key=lambda s: (days.index(s["dayOfWeek"]), s["startTime"], s["endTime"]))


def _create_contact(organization, data: dict, reveal_existing_id: bool) -> Contact:
    """A new contact through the contacts service (duplicate e-mail check, `contact.created` event)."""
    fields = {
        "first_name": data["first_name"],
        "last_name": data.get("last_name") or None,
        "email": data.get("email") or None,
        "phone": data.get("phone") or None,
    }
    try:
        return contact_services.create_contact(organization, reveal_existing_id=reveal_existing_id, **fields)
    except DuplicateValue as exc:
        existing_id = (exc.details or {}).get("existingId")
        raise DuplicateValue(
            "contact.email", existing_id, "A contact with this e-mail already exists; send its `contactId` instead."
        ) from exc


@transaction.atomic
def create_instructor(organization, data: dict, *, reveal_existing_contact_id=True) -> Instructor:
    """`data`: model field names; either `contact` (a Contact of the organization) or `new_contact` (a dict).
    A new contact's e-mail held by another active contact is a 409 naming that contact's id only when
    `reveal_existing_contact_id` (the caller holds `contacts:read`)."""
    data = dict(data)
    new_contact = data.pop("new_contact", None)
    if new_contact is not None:
        contact = _create_contact(organization, new_contact, reveal_existing_contact_id)
    else:
        contact = Contact.objects.select_for_update().get(pk=data.pop("contact").pk)
        existing_id = Instructor.objects.filter(contact=contact).values_list("id", flat=True).first()
        if existing_id is not None:
            raise DuplicateValue("contactId", existing_id, "This contact is already an instructor.")
    if "weekly_availability" in data:
        data["weekly_availability"] = normalize_availability(data["weekly_availability"])
    instructor = Instructor.objects.create(organization=organization, contact=contact, **data)
    emit(organization, "instructor.created", lambda: INSTRUCTOR.event_body(organization, instructor.pk))
    return instructor


@transaction.atomic
def update_instructor(instructor: Instructor, data: dict) -> Instructor:
    """Partial update; `weekly_availability` replaces the whole list. Emits `instructor.updated` on a change."""
    before = INSTRUCTOR.event_body(instructor.organization_id, instructor.pk)
    data = dict(data)
    if "weekly_availability" in data:
        data["weekly_availability"] = normalize_availability(data["weekly_availability"])
    set_fields(instructor, data)
    instructor.save()
    after = INSTRUCTOR.event_body(instructor.organization_id, instructor.pk)
    emit_if_changed(instructor.organization_id, "instructor.updated", before, after)
    return instructor
