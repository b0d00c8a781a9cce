"""Response shapes of contacts, pipeline stages and contact sources: plain functions over value rows (`.values()`
with the stage and source names joined), so a page builds no model instances and runs no query per row."""

CONTACT_COLUMNS = (
    "id",
    "first_name",
    "last_name",
    "email",
    "phone",
    "date_of_birth",
    "language",
    "profile_image",
    "status",
    "pipeline_stage_id",
    "pipeline_stage__name",
    "source_id",
    "source__name",
    "tags",
    "notes",
    "marketing_consent",
    "custom_fields",
    "archived_at",
    "created_at",
    "updated_at",
)


def contact_values(queryset):
    """The value rows `present_contact` reads (keeps the queryset's filters and ordering)."""
    return queryset.values(*CONTACT_COLUMNS)


def contact_row(queryset) -> dict:
    """The one row of `queryset` (a single contact, through the same presenter as the list)."""
    from apps.api.exceptions import NotFound

    row = contact_values(queryset).first()
    if row is None:
        raise NotFound()
    return row


def present_contact(row, ctx=None) -> dict:
    stage_id, source_id = row["pipeline_stage_id"], row["source_id"]
    return {
        "id": row["id"],
        "firstName": row["first_name"],
        "lastName": row["last_name"],
        "name": " ".join(p for p in (row["first_name"], row["last_name"]) if p),
        "email": row["email"],
        "phone": row["phone"],
        "dateOfBirth": row["date_of_birth"],
        "language": row["language"],
        "profileImage": row["profile_image"],
        "status": row["status"],
        "pipelineStageId": stage_id,
        "pipelineStage": {"id": stage_id, "name": row["pipeline_stage__name"]} if stage_id is not None else None,
        "sourceId": source_id,
        "source": {"id": source_id, "name": row["source__name"]} if source_id is not None else None,
        "tags": list(row["tags"] or []),
        "notes": row["notes"],
        "marketingConsent": row["marketing_consent"],
        "customFields": row["custom_fields"] or {},
        "archivedAt": row["archived_at"],
        "createdAt": row["created_at"],
        "updatedAt": row["updated_at"],
    }


def present_pipeline_stage(stage, ctx=None) -> dict:
    return {
        "id": stage.id,
        "name": stage.name,
        "position": stage.position,
        "color": stage.color,
        "isDefault": stage.is_default,
    }


def present_contact_source(source, ctx=None) -> dict:
    return {"id": source.id, "name": source.name, "isActive": source.is_active}
