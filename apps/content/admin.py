"""Admin of content items and media items. Content is saved through the services (derived slugs, `publishedAt`,
`content_item.*` events); its rich text, block document and author are edited through the API only, where they are
sanitized and checked against the organization's staff."""

from django.contrib import admin

from apps.organizations.admin_scoping import OrganizationScopedAdmin

from . import services
from .models import ContentItem, MediaItem


@admin.register(ContentItem)
class ContentItemAdmin(OrganizationScopedAdmin):
    list_display = ("title", "organization", "type", "slug", "status", "published_at", "updated_at")
    list_filter = ("organization", "type", "status", "visibility")
    search_fields = ("title", "slug", "excerpt")
    list_select_related = ("organization",)
    readonly_fields = ("html", "blocks", "author", "published_at", "created_at", "updated_at")

    def save_model(self, request, obj, form, change):
        data = {name: form.cleaned_data[name] for name in form.cleaned_data if name != "organization"}
        if change:
            services.update_content_item(obj, {name: data[name] for name in form.changed_data if name in data})
            obj.refresh_from_db()
        else:
            created = services.create_content_item(obj.organization, data)
            obj.pk = created.pk
            obj.refresh_from_db()


@admin.register(MediaItem)
class MediaItemAdmin(OrganizationScopedAdmin):
    list_display = ("name", "organization", "media_type", "url", "created_at")
    list_filter = ("organization", "media_type")
    search_fields = ("name", "alt_text")
    list_select_related = ("organization",)

    def get_readonly_fields(self, request, obj=None):
        return ("url",) if obj is not None else ()
