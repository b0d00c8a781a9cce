from django.contrib import admin

from apps.organizations.admin_scoping import OrganizationScopedAdmin

from .models import BookingPolicy, DocumentRule


@admin.register(BookingPolicy)
class BookingPolicyAdmin(OrganizationScopedAdmin):
    list_display = ("name", "organization", "applies_to", "club", "is_default", "updated_at")
    list_filter = ("organization", "applies_to", "is_default")
    search_fields = ("name",)
    list_select_related = ("organization", "club")
    filter_horizontal = ("area_types", "class_types")


@admin.register(DocumentRule)
class DocumentRuleAdmin(OrganizationScopedAdmin):
    list_display = ("name", "organization", "document_type", "requirement", "applies_to", "is_active")
    list_filter = ("organization", "document_type", "requirement", "applies_to", "is_active")
    search_fields = ("name",)
    list_select_related = ("organization",)
    filter_horizontal = ("plans", "class_types")
