"""Query parameters of the template and message lists."""

from django.db.models.functions import Lower

from apps.api.filtersets import BooleanFilter, ChoiceListFilter, Ordering, PlatformFilterSet, SearchFilter

from .choices import MessageChannel, MessageStatus


class TemplateFilterSet(PlatformFilterSet):
    channel = ChoiceListFilter("channel", choices=MessageChannel)
    isActive = BooleanFilter("is_active")
    q = SearchFilter("name", "subject", "body", help_text="Case-insensitive substring of the name, subject or body.")

    ordering = Ordering(
        {"createdAt": "created_at", "updatedAt": "updated_at", "name": Lower("name")},
        default="-createdAt",
        help_text="`createdAt` (default `-createdAt`), `updatedAt`, `name`; `-` for descending.",
    )


class MessageFilterSet(PlatformFilterSet):
    status = ChoiceListFilter("status", choices=MessageStatus)
    channel = ChoiceListFilter("channel", choices=MessageChannel)

    ordering = Ordering(
        {"createdAt": "created_at", "updatedAt": "updated_at", "sentAt": "sent_at"},
        default="-createdAt",
        help_text="`createdAt` (default `-createdAt`), `updatedAt`, `sentAt`; `-` for descending.",
    )
