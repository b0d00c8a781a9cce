"""Query parameters of the forms list."""

from django.db.models.functions import Lower

from apps.api.filtersets import BooleanFilter, Ordering, PlatformFilterSet, SearchFilter


class FormFilterSet(PlatformFilterSet):
    isActive = BooleanFilter("is_active")
    q = SearchFilter("name", "slug", help_text="Case-insensitive substring of the name or the slug.")

    ordering = Ordering(
        {"createdAt": "created_at", "updatedAt": "updated_at", "name": Lower("name")},
        default="-createdAt",
        help_text="`createdAt` (default `-createdAt`), `updatedAt`, `name`; `-` for descending.",
    )
