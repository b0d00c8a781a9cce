"""Query parameters of a webhook's delivery log."""

from apps.api.filtersets import ChoiceListFilter, Ordering, PlatformFilterSet, TextFilter

from .choices import DeliveryStatus


class WebhookFilterSet(PlatformFilterSet):
    ordering = Ordering({"createdAt": "created_at"}, default="-createdAt", help_text="`-createdAt` (default).")


class DeliveryFilterSet(PlatformFilterSet):
    status = ChoiceListFilter("status", choices=DeliveryStatus, help_text="Comma list: pending, succeeded, failed.")
    eventType = TextFilter("event_type", help_text="One event type, e.g. `booking.created`.")

    ordering = Ordering({"createdAt": "created_at"}, default="-createdAt", help_text="`-createdAt` (default).")
