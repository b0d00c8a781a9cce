"""Query parameters of the content items and media lists."""

from django.db.models import F
from django.db.models.functions import Lower

from apps.api.exceptions import ValidationFailed
from apps.api.filtersets import (
    BooleanFilter,
    ChoiceListFilter,
    ContainsFilter,
    Ordering,
    PlatformFilterSet,
    SearchFilter,
    TextFilter,
)
from apps.classes.choices import Visibility

from .choices import ContentItemStatus, ContentItemType, MediaType

WRITE_SCOPE = "content:write"
STATUS_NEEDS_WRITE = (
    "Without content:write only published items are listed; filtering on another status needs content:write."
)


class NullsLast:
    """An ordering target whose nulls sort last in both directions (never-published items after the others)."""

    def __init__(self, field: str):
        self.field = F(field)

    def asc(self):
        return self.field.asc(nulls_last=True)

    def desc(self):
        return self.field.desc(nulls_last=True)


class ContentItemFilterSet(PlatformFilterSet):
    type = ChoiceListFilter("type", choices=ContentItemType)
    status = ChoiceListFilter(
        method="filter_status",
        choices=ContentItemStatus,
        help_text="Comma list of `draft`, `published`, `archived`. A credential without content:write sees "
        "published items only, and any other value is a 400 for it.",
    )
    visibility = ChoiceListFilter("visibility", choices=Visibility)
    language = TextFilter("language", lookup_expr="iexact", help_text="Language code, e.g. `en` (exact match).")
    tag = ContainsFilter("tags", help_text="Items whose `tags` hold this tag (exact, case-sensitive).")
    featured = BooleanFilter("featured")
    q = SearchFilter("title", "excerpt", help_text="Case-insensitive substring of the title or the excerpt.")

    ordering = Ordering(
        {
            "publishedAt": NullsLast("published_at"),
            "createdAt": "created_at",
            "title": Lower("title"),
        },
        default="-createdAt",
        help_text="`publishedAt` (never-published items last either way), `createdAt` (default `-createdAt`), "
        "`title`; `-` for descending.",
    )

    def filter_status(self, queryset, name, values):
        credential = getattr(self.request, "auth", None)
        if not (credential and credential.has_scope(WRITE_SCOPE)) and set(values) != {ContentItemStatus.PUBLISHED}:
            raise ValidationFailed({"status": [STATUS_NEEDS_WRITE]})
        return queryset.filter(status__in=values)


class MediaItemFilterSet(PlatformFilterSet):
    name = SearchFilter("name", "alt_text", help_text="Case-insensitive substring of the name or of the alt text.")
    mediaType = ChoiceListFilter("media_type", choices=MediaType)

    ordering = Ordering(
        {"createdAt": "created_at", "name": Lower("name")},
        default="-createdAt",
        help_text="`createdAt` (default `-createdAt`), `name`; `-` for descending.",
    )
