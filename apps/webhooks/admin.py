from django.contrib import admin

from apps.organizations.admin_scoping import OrganizationScopedAdmin

from .models import WebhookDelivery, WebhookSubscription


@admin.register(WebhookSubscription)
class WebhookSubscriptionAdmin(OrganizationScopedAdmin):
    """Subscriptions are created through the API (the secret is shown once there); here they can be inspected,
    re-enabled or switched off. The secrets are never shown."""

    list_display = ("url", "organization", "is_active", "disabled_reason", "failing_since", "created_at")
    list_filter = ("organization", "is_active", "disabled_reason")
    search_fields = ("url", "description")
    list_select_related = ("organization",)
    exclude = ("secret", "previous_secret")
    readonly_fields = (
        "organization",
        "url",
        "events",
        "scopes",
        "disabled_reason",
        "previous_secret_expires_at",
        "failing_since",
        "failure_warned_at",
        "created_at",
        "updated_at",
    )

    def has_add_permission(self, request):
        return False

    def save_model(self, request, obj, form, change):
        if obj.is_active and "is_active" in form.changed_data:
            obj.disabled_reason = None
            obj.failing_since = obj.failure_warned_at = None
        super().save_model(request, obj, form, change)


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(OrganizationScopedAdmin):
    """The delivery log (read-only): every delivery's latest attempt, kept 30 days."""

    list_display = (
        "event_type",
        "subscription",
        "organization",
        "status",
        "attempts",
        "response_status",
        "last_attempt_at",
        "next_attempt_at",
        "created_at",
    )
    list_filter = ("organization", "status", "event_type")
    search_fields = ("event__id", "subscription__url")
    list_select_related = ("organization", "subscription")
    date_hierarchy = "created_at"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
