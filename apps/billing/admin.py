"""Revenue accounts, plan categories and plans. Memberships are administered in apps/memberships/admin.py, with
their billed periods."""

from django.contrib import admin

from apps.organizations.admin_scoping import OrganizationScopedAdmin

from .models import Plan, PlanCategory, RevenueAccount


@admin.register(RevenueAccount)
class RevenueAccountAdmin(OrganizationScopedAdmin):
    """Switching the default here goes through the API (one default under a lock); the admin shows the flag."""

    list_display = ("name", "organization", "code", "is_default", "is_active", "created_at")
    list_filter = ("organization", "is_default", "is_active")
    search_fields = ("name", "code")
    readonly_fields = ("is_default",)


@admin.register(PlanCategory)
class PlanCategoryAdmin(OrganizationScopedAdmin):
    list_display = ("name", "organization", "position", "created_at")
    list_filter = ("organization",)
    search_fields = ("name",)


@admin.register(Plan)
class PlanAdmin(OrganizationScopedAdmin):
    list_display = (
        "name",
        "organization",
        "plan_category",
        "price",
        "billing_frequency",
        "max_uses",
        "revenue_account",
        "is_active",
        "retired_at",
    )
    list_filter = ("organization", "plan_category", "billing_frequency", "is_active", "visibility")
    search_fields = ("name",)
    list_select_related = ("organization", "plan_category", "revenue_account")
