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


def present_availability(slots) -> list[dict]:
    return [
        {
            "dayOfWeek": slot.get("dayOfWeek"),
            "startTime": slot.get("startTime"),
            "endTime": slot.get("endTime"),
            "clubId": slot.get("clubId"),
        }
        for slot in slots or []
    ]


def present_instructor(instructor) -> dict:
    """Instructor as the instructors endpoints return it: the public shape plus availability and pay policy."""
    data = present_public_instructor(instructor)
    data["weeklyAvailability"] = present_availability(instructor.weekly_availability)
    data["payRatePolicyId"] = instructor.pay_rate_policy_id
    data["createdAt"] = instructor.created_at
    data["updatedAt"] = instructor.updated_at
    return data


def present_instructor_type(instructor_type) -> dict:
    return {"id": instructor_type.id, "name": instructor_type.name, "description": instructor_type.description}


def present_pay_rate_policy(policy) -> dict:
    return {
        "id": policy.id,
        "name": policy.name,
        "rateType": policy.rate_type,
        "amount": money(policy.amount),
        "isActive": policy.is_active,
        "createdAt": policy.created_at,
        "updatedAt": policy.updated_at,
    }
