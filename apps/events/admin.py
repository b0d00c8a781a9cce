from django.contrib import admin, messages

from apps.api.exceptions import ApiError
from apps.organizations.admin_scoping import OrganizationScopedAdmin, OrganizationScopedTabularInline

from . import services
from .models import Event, EventTicket


class EventTicketInline(OrganizationScopedTabularInline):
    model = EventTicket
    extra = 0
    exclude = ("organization",)
    fields = ("name", "price_before_tax", "quantity", "sales_start", "sales_end", "position")


@admin.register(Event)
class EventAdmin(OrganizationScopedAdmin):
    """Status moves go through the services (publishing, and cancelling with its attendees' bookings), as actions;
    the status itself is read-only here."""

    list_display = ("name", "organization", "club", "start_time", "status", "capacity", "visibility")
    list_filter = ("organization", "status", "visibility", "club")
    search_fields = ("name", "slug")
    list_select_related = ("organization", "club")
    readonly_fields = ("slug", "status", "published_at", "cancelled_at", "created_at", "updated_at")
    date_hierarchy = "start_time"
    inlines = [EventTicketInline]
    actions = ["publish_events", "cancel_events"]

    def save_model(self, request, obj, form, change):
        if not obj.slug:
            obj.slug = services.free_event_slug(obj.organization_id, obj.name)
        super().save_model(request, obj, form, change)

    def _apply(self, request, queryset, operation, done):
        count = 0
        for event in queryset:
            try:
                operation(event)
                count += 1
            except ApiError as error:
                self.message_user(request, f"{event.name}: {error.message}", messages.WARNING)
        if count:
            self.message_user(request, f"{count} event(s) {done}.", messages.SUCCESS)

    @admin.action(description="Publish the selected draft events")
    def publish_events(self, request, queryset):
        self._apply(request, queryset, services.publish_event, "published")

    @admin.action(description="Cancel the selected events (their attendees' bookings are cancelled)")
    def cancel_events(self, request, queryset):
        self._apply(request, queryset, services.cancel_event, "cancelled")
