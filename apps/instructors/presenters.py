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


# `.values()` columns (relative to Instructor) that present_public_instructor_row reads.
PUBLIC_INSTRUCTOR_COLUMNS = (
    "id",
    "contact_id",
    "sports",
    "type_id",
    "type__name",
    "experience",
    "hourly_rate",
    "bio",
    "certifications",
    "is_active",
    "is_bookable",
    "contact__first_name",
    "contact__last_name",
    "contact__profile_image",
)


PUBLIC_INSTRUCTOR_JSON = ("sports", "bio", "certifications")
# ... and the instructors endpoints' shape.
INSTRUCTOR_COLUMNS = (
    *PUBLIC_INSTRUCTOR_COLUMNS,
    "weekly_availability",
    "pay_rate_policy_id",
    "created_at",
    "updated_at",
)
INSTRUCTOR_JSON = (*PUBLIC_INSTRUCTOR_JSON, "weekly_availability")


def present_instructor_row(row: dict) -> dict:
    """Instructor as the instructors endpoints return it, from a `.values(*INSTRUCTOR_COLUMNS)` row."""
    data = present_public_instructor_row(row)
    data["weeklyAvailability"] = present_availability(row["weekly_availability"])
    data["payRatePolicyId"] = row["pay_rate_policy_id"]
    data["createdAt"] = row["created_at"]
    data["updatedAt"] = row["updated_at"]
    return data


def present_public_instructor_row(row: dict) -> dict:
    """The public Instructor shape from a `.values(*PUBLIC_INSTRUCTOR_COLUMNS)` row (no model instances)."""
    name = " ".join(p for p in (row["contact__first_name"], row["contact__last_name"]) if p)
    return {
        "id": row["id"],
        "contactId": row["contact_id"],
        "sports": list(row["sports"] or []),
        "typeId": row["type_id"],
        "type": {"id": row["type_id"], "name": row["type__name"]} if row["type_id"] is not None else None,
        "experience": row["experience"],
        "hourlyRate": money(row["hourly_rate"]),
        "bio": row["bio"],
        "certifications": list(row["certifications"] or []),
        "isActive": row["is_active"],
        "isBookable": row["is_bookable"],
        "contact": {"name": name or None, "profileImage": row["contact__profile_image"]},
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
