"""Response dicts for class types and progression tracks (plain functions, no per-row queries)."""

from apps.api.presenters import resolve_translation


def presenter_context(request) -> dict:
    """What the presenters need from the request: the `locale` query value and the organization's language."""
    return {
        "locale": (request.query_params.get("locale") or "").strip() or None,
        "default_language": request.organization.default_language,
    }


def _translated(obj, ctx: dict, field: str):
    return resolve_translation(
        obj.translations, ctx.get("locale"), ctx.get("default_language"), field, getattr(obj, field)
    )


def present_class_type(class_type, ctx: dict) -> dict:
    return {
        "id": class_type.id,
        "name": _translated(class_type, ctx, "name"),
        "slug": class_type.slug,
        "description": _translated(class_type, ctx, "description"),
        "maxPartySize": class_type.max_party_size,
        "color": class_type.color,
        "sport": class_type.sport,
        "isActive": class_type.is_active,
        "translations": class_type.translations or {},
        "createdAt": class_type.created_at,
        "updatedAt": class_type.updated_at,
    }


def present_progression_track(track, ctx: dict) -> dict:
    """Needs `class_types` and `levels` prefetched (see PROGRESSION_TRACK_PREFETCH)."""
    return {
        "id": track.id,
        "name": _translated(track, ctx, "name"),
        "slug": track.slug,
        "description": _translated(track, ctx, "description"),
        "classTypeIds": sorted(ct.id for ct in track.class_types.all()),
        "levels": [{"id": lvl.id, "name": lvl.name, "position": lvl.position} for lvl in track.levels.all()],
        "translations": track.translations or {},
        "createdAt": track.created_at,
        "updatedAt": track.updated_at,
    }
