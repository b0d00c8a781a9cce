from django.contrib import admin

from apps.organizations.admin_scoping import OrganizationScopedAdmin

from .models import PricingRule


@admin.register(PricingRule)
class PricingRuleAdmin(OrganizationScopedAdmin):
    list_display = ("name", "organization", "club", "adjustment_type", "value", "priority", "audience", "is_active")
    list_filter = ("organization", "adjustment_type", "audience", "is_active")
    search_fields = ("name",)
    list_select_related = ("organization", "club")
