from django.contrib import admin, messages
from django.utils.html import format_html

from apps.organizations.admin_scoping import OrganizationScopedAdmin

from . import services
from .choices import DomainCheck, PublisherType
from .domains import challenge_record
from .models import Website


@admin.register(Website)
class WebsiteAdmin(OrganizationScopedAdmin):
    """Staff manage the website record (host label, custom domain, on/off) and may publish the draft; pages and
    sections are edited through the API."""

    list_display = ("name", "organization", "slug", "domain", "domain_verified", "is_default", "is_active")
    list_filter = ("organization", "is_active")
    search_fields = ("name", "slug", "domain")
    list_select_related = ("organization", "active_release")
    readonly_fields = (
        "domain_status",
        "is_default",
        "active_release",
        "layout",
        "styles",
        "seo_settings",
        "created_at",
        "updated_at",
    )
    exclude = ("draft_hash",)
    actions = ["publish_draft", "verify_custom_domain"]

    @admin.display(boolean=True, description="Domain verified")
    def domain_verified(self, obj):
        return bool(obj.domain and obj.domain_verified_at) if obj.domain else None

    @admin.display(description="Custom domain verification")
    def domain_status(self, obj):
        if obj is None or not obj.domain:
            return "No custom domain."
        record = challenge_record(obj.domain, obj.domain_challenge)
        state = (
            f"Verified {obj.domain_verified_at:%Y-%m-%d %H:%M} UTC; served."
            if obj.domain_verified_at
            else "Not verified: not served yet. Publish this DNS record, then run the action "
            "“Verify the custom domain” (or POST /v1/platform/websites/{id}/verify-domain)."
        )
        return format_html('{}<br><code>{} {} "{}"</code>', state, record["name"], record["type"], record["value"])

    @admin.action(description="Verify the custom domain (DNS TXT challenge)", permissions=["change"])
    def verify_custom_domain(self, request, queryset):
        outcomes = {
            DomainCheck.VERIFIED: ("verified; it is served now.", messages.SUCCESS),
            DomainCheck.RECORD_NOT_FOUND: (
                "the TXT record was not found (DNS changes may take a while).",
                messages.WARNING,
            ),
            DomainCheck.LOOKUP_FAILED: ("the DNS could not be asked; try again later.", messages.ERROR),
        }
        for website in queryset:
            if not website.domain:
                self.message_user(request, f"{website}: no custom domain.", messages.WARNING)
                continue
            text, level = outcomes[services.verify_domain(website)]
            self.message_user(request, f"Custom domain {website.domain}: {text}", level)

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
