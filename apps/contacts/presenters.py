"""Response shapes of contacts, pipeline stages and contact sources (plain dicts, no per-row queries)."""

CONTACT_SELECT_RELATED = ("pipeline_stage", "source")


def contact_queryset(queryset):
    return queryset.select_related(*CONTACT_SELECT_RELATED)


def present_contact(contact, ctx=None) -> dict:
    stage = contact.pipeline_stage
    source = contact.source
    return {
        "id": contact.id,
        "firstName": contact.first_name,
        "lastName": contact.last_name,
        "name": contact.name,
        "email": contact.email,
        "phone": contact.phone,
        "dateOfBirth": contact.date_of_birth,
        "language": contact.language,
        "profileImage": contact.profile_image,
        "status": contact.status,
        "pipelineStageId": contact.pipeline_stage_id,
        "pipelineStage": {"id": stage.id, "name": stage.name} if stage else None,
        "sourceId": contact.source_id,
        "source": {"id": source.id, "name": source.name} if source else None,
        "tags": list(contact.tags or []),
        "notes": contact.notes,
        "marketingConsent": contact.marketing_consent,
        "customFields": contact.custom_fields or {},
        "archivedAt": contact.archived_at,
        "createdAt": contact.created_at,
        "updatedAt": contact.updated_at,
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
