"""Response dicts for instructors (plain functions over select_related querysets: no per-row queries)."""

from apps.api.presenters import money

# select_related paths (relative to Instructor) that present_public_instructor needs.
PUBLIC_INSTRUCTOR_PREFETCH = ("contact", "type")


def present_public_instructor(instructor) -> dict:
    """The spec's public Instructor shape (the one returned inside classes)."""
    contact = instructor.contact
    itype = instructor.type
    return {
        "id": instructor.id,
        "contactId": instructor.contact_id,
        "sports": list(instructor.sports or []),
        "typeId": instructor.type_id,
        "type": {"id": itype.id, "name": itype.name} if itype is not None else None,
        "experience": instructor.experience,
        "hourlyRate": money(instructor.hourly_rate),
        "bio": instructor.bio,
        "certifications": list(instructor.certifications or []),
        "isActive": instructor.is_active,
        "isBookable": instructor.is_bookable,
        "contact": (
            {"name": contact.name or None, "profileImage": contact.profile_image} if contact is not None else None
        ),
    }
