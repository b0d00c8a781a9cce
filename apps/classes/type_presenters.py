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


TRACK_COLUMNS = ("id", "name", "slug", "description", "translations", "created_at", "updated_at", "class_type_ids")


def track_values(queryset):
    """Progression tracks as `.values()` rows with their class type ids (sorted) from one SQL subquery."""
    from apps.api.expressions import related_ids

    from .models import ProgressionTrack

    class_type_ids = related_ids(ProgressionTrack.class_types.through.objects, "progressiontrack_id", "classtype_id")
    return queryset.annotate(class_type_ids=class_type_ids).values(*TRACK_COLUMNS)


def present_track_rows(rows, ctx: dict) -> list[dict]:
    """Progression tracks from `track_values` rows, with their levels read in one query."""
    from .models import ProgressionLevel

    rows = list(rows)
    levels: dict[int, list] = {row["id"]: [] for row in rows}
    if rows:
        for level in (
            ProgressionLevel.objects.filter(track_id__in=list(levels))
            .order_by("position", "id")
            .values("track_id", "id", "name", "position")
        ):
            levels[level.pop("track_id")].append(level)
    locale, default_language = ctx.get("locale"), ctx.get("default_language")
    return [
        {
            "id": row["id"],
            "name": resolve_translation(row["translations"], locale, default_language, "name", row["name"]),
            "slug": row["slug"],
            "description": resolve_translation(
                row["translations"], locale, default_language, "description", row["description"]
            ),
            "classTypeIds": sorted(row["class_type_ids"] or []),
            "levels": levels[row["id"]],
            "translations": row["translations"] or {},
            "createdAt": row["created_at"],
            "updatedAt": row["updated_at"],
        }
        for row in rows
    ]
