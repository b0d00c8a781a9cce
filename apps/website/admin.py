from django.contrib import admin, messages

from apps.organizations.admin_scoping import OrganizationScopedAdmin

from . import services
from .choices import PublisherType
from .models import Website


@admin.register(Website)
class WebsiteAdmin(OrganizationScopedAdmin):
    """Staff manage the website record (host label, custom domain, on/off) and may publish the draft; pages and
    sections are edited through the API."""

    list_display = ("name", "organization", "slug", "domain", "is_default", "is_active", "active_release")
    list_filter = ("organization", "is_active")
    search_fields = ("name", "slug", "domain")
    list_select_related = ("organization", "active_release")
    readonly_fields = ("is_default", "active_release", "layout", "styles", "seo_settings", "created_at", "updated_at")
    exclude = ("draft_hash",)
    actions = ["publish_draft"]

    def has_delete_permission(self, request, obj=None):
        if obj is not None and obj.is_default:
            return False  # every organization keeps exactly one default website
        return super().has_delete_permission(request, obj)

    @admin.action(description="Publish the draft of the selected websites")
    def publish_draft(self, request, queryset):
        for website in queryset:
            release = services.publish(
                website,
                note="Published in the admin",
                published_by=(PublisherType.USER, request.user.get_username()),
            )
            self.message_user(request, f"{website}: release {release.version} is now served.", messages.SUCCESS)
