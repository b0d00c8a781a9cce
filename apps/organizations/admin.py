"""Admin for organizations and API keys ("Settings > Organization > APIs & webhooks").

Superusers see everything. Any other staff user sees only the organizations in which they hold
`settings.manage.organization` (admins, and non-managers with full settings management) and only those
organizations' keys. Those permissions come from `StaffMembership`, not from Django's model permissions.
Users and groups are for superusers only, and the admin's sign-in form limits failed attempts (`admin_login`).
"""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.widgets import AdminDateWidget
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import ngettext

from apps.api.scopes import ACTION_LABELS, WILDCARD

from .admin_login import ThrottledAdminAuthenticationForm
from .admin_scoping import SuperuserWritesAdminMixin
from .models import TOKEN_PREFIX, ApiKey, Organization, StaffMembership, organizations_managed_by
from .services import (
    check_can_issue_keys,
    expiry_for_date,
    issue_api_key,
    normalize_scopes,
    revoke_api_keys,
    revoke_calendar_feeds,
    revoke_signed_links,
    scope_choices_by_resource,
)

admin.site.login_form = ThrottledAdminAuthenticationForm

TOKEN_TEMPLATE = "admin/organizations/apikey/token_created.html"
SCOPE_GROUPS = scope_choices_by_resource()
ACTION_COLUMNS = tuple(ACTION_LABELS)  # read, write, delete, publish


def managed_organization_ids(request) -> frozenset[int]:
    """Ids of the organizations whose settings the signed-in user manages (cached on the request)."""
    if not hasattr(request, "_managed_organization_ids"):
        request._managed_organization_ids = frozenset(
            organizations_managed_by(request.user).values_list("id", flat=True)
        )
    return request._managed_organization_ids


def can_manage(request, organization_id=None) -> bool:
    user = request.user
    if not (user.is_active and user.is_staff):
        return False
    if user.is_superuser:
        return True
    managed = managed_organization_ids(request)
    return bool(managed) if organization_id is None else organization_id in managed


def join_safe(fragments):
    """Concatenate fragments that format_html already escaped."""
    return mark_safe("".join(fragments))  # noqa: S308 - every fragment comes from format_html


class ScopeMatrixWidget(forms.CheckboxSelectMultiple):
    """One row per resource with a checkbox per action the registry defines (Read, Write, Delete, Publish)."""

    def render(self, name, value, attrs=None, renderer=None):
        selected = set(value or [])
        header = format_html_join("", "<th>{}</th>", ((ACTION_LABELS[a],) for a in ACTION_COLUMNS))
        rows = []
        for resource, choices in SCOPE_GROUPS:
            offered = {scope.rsplit(":", 1)[1]: (scope, label) for scope, label in choices}
            cells = []
            for action in ACTION_COLUMNS:
                if action not in offered:
                    cells.append(format_html("<td>{}</td>", "—"))
                    continue
                scope, label = offered[action]
                cells.append(
                    format_html(
                        '<td><label><input type="checkbox" name="{}" value="{}" id="id_{}_{}"{}> {}</label></td>',
                        name,
                        scope,
                        name,
                        scope.replace(":", "_"),
                        " checked" if scope in selected else "",
                        label,
                    )
                )
            rows.append(format_html("<tr><th>{}</th>{}</tr>", resource, join_safe(cells)))
        return format_html(
            '<table class="scope-matrix" id="id_{}"><thead><tr><th>Resource</th>{}</tr></thead>'
            "<tbody>{}</tbody></table>",
            name,
            header,
            join_safe(rows),
        )


class ApiKeyCreateForm(forms.ModelForm):
    """Name, Description, Scopes (per resource) or Full access, and Expires (a date, or empty)."""

    full_access = forms.BooleanField(
        required=False,
        label="Full access",
        help_text="Every scope, including scopes added later. Overrides the choices below.",
    )
    scopes = forms.MultipleChoiceField(
        required=False,
        choices=[(scope, scope) for _, choices in SCOPE_GROUPS for scope, _label in choices],
        widget=ScopeMatrixWidget,
        label="Scopes",
        help_text="Each scope grants exactly one capability: Write does not include Read.",
    )
    expires_on = forms.DateField(
        required=False,
        label="Expires",
        widget=AdminDateWidget,
        help_text="The key works until the end of this day in the organization's time zone. Empty: no expiry.",
    )

    class Meta:
        model = ApiKey
        fields = ["organization", "name", "description"]

    def clean(self):
        cleaned = super().clean()
        organization = cleaned.get("organization")
        if organization is not None:
            try:
                check_can_issue_keys(organization)
            except ValidationError as exc:
                self.add_error("organization", exc)
        if cleaned.get("full_access") or "scopes" in cleaned:  # absent: the field already reported an error
            try:
                cleaned["scopes"] = normalize_scopes([WILDCARD] if cleaned.get("full_access") else cleaned["scopes"])
            except ValidationError as exc:
                self.add_error("scopes", exc)
        if organization is not None and cleaned.get("expires_on"):
            try:
                expiry_for_date(organization, cleaned["expires_on"])
            except ValidationError as exc:
                self.add_error("expires_on", exc)
        return cleaned


class ApiKeyChangeForm(forms.ModelForm):
    """After creation only the label and description change; scopes, expiry and the token are fixed."""

    class Meta:
        model = ApiKey
        fields = ["name", "description"]


class ManagedOrganizationFilter(admin.RelatedOnlyFieldListFilter):
    """Lists only organizations present in the (already restricted) key list, never every organization."""


@admin.register(ApiKey)
class ApiKeyAdmin(admin.ModelAdmin):
    list_display = ["name", "organization", "token_prefix", "scope_summary", "status", "expires_at", "last_used_at"]
    list_filter = [("organization", ManagedOrganizationFilter)]
    search_fields = ["name", "prefix", "description"]
    list_select_related = ["organization"]
    actions = ["revoke_selected"]
    add_fieldsets = [
        (None, {"fields": ["organization", "name", "description"]}),
        ("Scopes", {"fields": ["full_access", "scopes"]}),
        ("Expiry", {"fields": ["expires_on"]}),
    ]
    change_fieldsets = [
        (None, {"fields": ["organization", "name", "description", "token_prefix"]}),
        ("Access", {"fields": ["scope_list", "status", "expires_at", "revoked_at"]}),
        ("History", {"fields": ["created_by", "created_at", "last_used_at"]}),
    ]

    # --- querysets and permissions (StaffMembership-based) ---

    def get_queryset(self, request):
        queryset = super().get_queryset(request).select_related("organization", "created_by")
        if request.user.is_superuser:
            return queryset
        return queryset.filter(organization_id__in=managed_organization_ids(request))

    def has_module_permission(self, request):
        return can_manage(request)

    def has_view_permission(self, request, obj=None):
        return can_manage(request, obj.organization_id if obj is not None else None)

    def has_add_permission(self, request):
        return can_manage(request)

    def has_change_permission(self, request, obj=None):
        return can_manage(request, obj.organization_id if obj is not None else None)

    def has_delete_permission(self, request, obj=None):
        return False  # keys are revoked, never deleted, so their history stays visible

    def has_revoke_permission(self, request):
        return can_manage(request)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "organization":
            queryset = Organization.objects.all()
            if not request.user.is_superuser:
                queryset = queryset.filter(id__in=managed_organization_ids(request))
            kwargs["queryset"] = queryset
            if len(ids := list(queryset.values_list("id", flat=True)[:2])) == 1:
                kwargs["initial"] = ids[0]
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    # --- forms: the add form and the (name/description only) change form ---

    def get_fieldsets(self, request, obj=None):
        return self.add_fieldsets if obj is None else self.change_fieldsets

    def get_readonly_fields(self, request, obj=None):
        """After creation every field shown is read-only but those of the change form."""
        if obj is None:
            return []
        editable = ApiKeyChangeForm.Meta.fields
        return [field for _, options in self.change_fieldsets for field in options["fields"] if field not in editable]

    def get_form(self, request, obj=None, **kwargs):
        kwargs["form"] = ApiKeyCreateForm if obj is None else ApiKeyChangeForm
        return super().get_form(request, obj, **kwargs)

    def save_model(self, request, obj, form, change):
        if change:
            obj.save(update_fields=["name", "description"])
            return
        data = form.cleaned_data
        key, token = issue_api_key(
            data["organization"],
            name=data["name"],
            description=data.get("description", ""),
            scopes=data["scopes"],
            expires_on=data.get("expires_on"),
            created_by=request.user,
        )
        obj.pk = key.pk
        obj.refresh_from_db()
        obj._state.adding = False
        request._issued_api_key_token = token  # lives for this response only

    def response_add(self, request, obj, post_url_continue=None):
        token = getattr(request, "_issued_api_key_token", None)
        if token is None:
            return super().response_add(request, obj, post_url_continue)
        opts = self.opts
        context = {
            **self.admin_site.each_context(request),
            "title": "API key created",
            "opts": opts,
            "key": obj,
            "token": token,
            "change_url": reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk]),
            "changelist_url": reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist"),
            "add_url": reverse(f"admin:{opts.app_label}_{opts.model_name}_add"),
        }
        response = TemplateResponse(request, TOKEN_TEMPLATE, context)
        response["Cache-Control"] = "no-store"
        return response

    # --- revocation ---

    @admin.action(description="Revoke selected API keys", permissions=["revoke"])
    def revoke_selected(self, request, queryset):
        to_revoke = list(queryset.filter(revoked_at__isnull=True))
        count = revoke_api_keys(queryset.filter(pk__in=[k.pk for k in to_revoke]))
        for key in to_revoke:
            self.log_change(request, key, "Revoked.")
        if count:
            message = ngettext("Revoked %d API key.", "Revoked %d API keys.", count) % count
            self.message_user(request, message + " It stops working on its next request.", messages.SUCCESS)
        else:
            self.message_user(request, "The selected keys were already revoked.", messages.WARNING)

    # --- display ---

    @admin.display(description="Token")
    def token_prefix(self, obj):
        return f"{TOKEN_PREFIX}_{obj.prefix}_…"

    @admin.display(description="Scopes")
    def scope_summary(self, obj):
        if WILDCARD in obj.scopes:
            return "Full access"
        return ", ".join(obj.scopes) if len(obj.scopes) <= 3 else f"{len(obj.scopes)} scopes"

    @admin.display(description="Scopes")
    def scope_list(self, obj):
        if WILDCARD in obj.scopes:
            return "Full access (*)"
        return ", ".join(obj.scopes)

    @admin.display(description="Status")
    def status(self, obj):
        if obj.is_revoked:
            return "Revoked"
        if obj.is_expired(timezone.now()):
            return "Expired"
        return "Active"


class StaffMembershipInline(admin.TabularInline):
    model = StaffMembership
    extra = 0
    raw_id_fields = ["user"]
    fields = ["user", "role", "full_settings_management"]


@admin.register(Organization)
class OrganizationAdmin(admin.ModelAdmin):
    """Superusers create, edit and delete organizations.

    A settings manager sees their own organizations; with Django's `change_organization` permission as well they
    may edit the settings, but never the plan or the status (the billing relationship), nor the staff.
    """

    list_display = ["name", "slug", "plan", "status", "currency", "timezone"]
    list_filter = ["plan", "status"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["api_keys"]
    superuser_only_fields = ["plan", "status"]
    inlines = [StaffMembershipInline]
    actions = ["revoke_links", "revoke_feeds"]

    @admin.action(description="Revoke every invoice PDF and website preview link", permissions=["change"])
    def revoke_links(self, request, queryset):
        self.report(
            request,
            revoke_signed_links(queryset),
            "Every PDF and preview link of %d organization was revoked; new reads give fresh links.",
            "Every PDF and preview link of %d organizations was revoked; new reads give fresh links.",
        )

    @admin.action(description="Revoke every instructor calendar feed URL", permissions=["change"])
    def revoke_feeds(self, request, queryset):
        self.report(
            request,
            revoke_calendar_feeds(queryset),
            "Every calendar feed URL of %d organization was revoked; instructors subscribe to the new URL.",
            "Every calendar feed URL of %d organizations was revoked; instructors subscribe to the new URL.",
        )

    def report(self, request, count: int, singular: str, plural: str) -> None:
        self.message_user(request, ngettext(singular, plural, count) % count, messages.SUCCESS)

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(id__in=managed_organization_ids(request))

    def get_inlines(self, request, obj):
        return self.inlines if request.user.is_superuser else []

    def get_prepopulated_fields(self, request, obj=None):
        return self.prepopulated_fields if request.user.is_superuser else {}

    def has_module_permission(self, request):
        return can_manage(request)

    def has_view_permission(self, request, obj=None):
        return can_manage(request, obj.pk if obj is not None else None)

    def has_add_permission(self, request):
        return request.user.is_superuser

    def has_change_permission(self, request, obj=None):
        # Django's model permission alone would let a settings manager edit every organization.
        return can_manage(request, obj.pk if obj is not None else None) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return request.user.is_superuser

    def get_readonly_fields(self, request, obj=None):
        readonly = list(super().get_readonly_fields(request, obj))
        return readonly if request.user.is_superuser else readonly + self.superuser_only_fields

    @admin.display(description="API keys")
    def api_keys(self, obj):
        if obj.pk is None:
            return "—"
        url = reverse("admin:organizations_apikey_changelist") + f"?organization__id__exact={obj.pk}"
        return format_html('<a href="{}">Manage API keys</a>', url)


class SuperuserOnlyAdminMixin(SuperuserWritesAdminMixin):
    """Users and groups span every organization, and `change_user` could grant superuser status: superusers only."""

    def has_module_permission(self, request):
        return request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return request.user.is_superuser


class SuperuserOnlyUserAdmin(SuperuserOnlyAdminMixin, UserAdmin):
    pass


class SuperuserOnlyGroupAdmin(SuperuserOnlyAdminMixin, GroupAdmin):
    pass


admin.site.unregister(get_user_model())  # registered by the django.contrib.auth.admin import above
admin.site.register(get_user_model(), SuperuserOnlyUserAdmin)
admin.site.unregister(Group)
admin.site.register(Group, SuperuserOnlyGroupAdmin)
