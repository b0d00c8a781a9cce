"""Admin for area blocks (tenancy from `OrganizationScopedAdmin`)."""

from django.contrib import admin

from apps.organizations.admin_scoping import OrganizationScopedAdmin

from .models import AreaBlock


@admin.register(AreaBlock)
class AreaBlockAdmin(OrganizationScopedAdmin):
    exclude = ("organization", "club")
    list_display = ("area", "club", "start_time", "end_time", "reason")
    list_filter = ("club",)
    list_select_related = ("area", "club")
    date_hierarchy = "start_time"

    def save_model(self, request, obj, form, change):
        obj.organization_id = obj.area.organization_id
        obj.club_id = obj.area.club_id
        super().save_model(request, obj, form, change)
