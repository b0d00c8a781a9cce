"""Staff see and revoke an organization's OAuth grants; clients are visible to superusers only.

django-oauth-toolkit's own admins (application, token, code lists) are replaced: tokens are never shown (only their
checksums are stored anyway), and a grant is the unit staff revoke, with every token of it.
"""

from django.contrib import admin, messages
from django.contrib.admin.exceptions import NotRegistered
from oauth2_provider.models import get_device_grant_model

from apps.api.scopes import describe
from apps.organizations.admin_scoping import OrganizationScopedAdmin

from . import services
from .models import AccessToken, AuthorizationCode, Client, Grant, IDToken, RefreshToken

for model in (Client, AuthorizationCode, AccessToken, RefreshToken, IDToken, get_device_grant_model()):
    try:
        admin.site.unregister(model)
    except NotRegistered:
        pass


@admin.register(Grant)
class GrantAdmin(OrganizationScopedAdmin):
    list_display = ["client_name", "organization", "user", "scope_summary", "status", "created_at", "last_used_at"]
    list_filter = ["organization", "revoked_at"]
    list_select_related = ["client", "organization", "user"]
    search_fields = ["client__name", "client__client_id", "user__username", "user__email"]
    actions = ["revoke_selected"]
    fields = [
        "organization",
        "client_name",
        "client_id",
        "user",
        "scope_list",
        "resource",
        "status",
        "created_at",
        "last_used_at",
        "revoked_at",
        "revoked_reason",
    ]
    readonly_fields = fields

    @admin.display(description="Client")
    def client_name(self, grant):
        return grant.client.name or grant.client.client_id

    @admin.display(description="Client ID")
    def client_id(self, grant):
        return grant.client.client_id

    @admin.display(description="Scopes")
    def scope_summary(self, grant):
        scopes = grant.scopes
        return "Full access" if "*" in scopes else ", ".join(scopes)

    @admin.display(description="Scopes granted")
    def scope_list(self, grant):
        return "; ".join(f"{scope}: {describe(scope)}" for scope in grant.scopes)

    @admin.display(description="Status")
    def status(self, grant):
        return f"Revoked ({grant.revoked_reason})" if grant.is_revoked else "Active"

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description="Revoke selected grants (every token of them stops working at once)")
    def revoke_selected(self, request, queryset):
        count = services.revoke_grants(queryset.filter(revoked_at__isnull=True))
        self.message_user(request, f"Revoked {count} grant(s).", messages.SUCCESS)


@admin.register(Client)
class ClientAdmin(admin.ModelAdmin):
    """Registered clients are shared by every organization: superusers only."""

    list_display = ["name", "client_id", "application_type", "client_type", "registration_source", "created"]
    search_fields = ["name", "client_id"]
    fields = [
        "name",
        "client_id",
        "application_type",
        "client_type",
        "token_endpoint_auth_method",
        "redirect_uris",
        "registered_scope",
        "registration_source",
        "cimd_expires_at",
        "created",
    ]
    readonly_fields = fields

    def has_module_permission(self, request):
        return request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return request.user.is_superuser

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return request.user.is_superuser
