from django.contrib import admin

from apps.organizations.admin_scoping import OrganizationScopedAdmin

from .models import Instructor, InstructorType, PayRatePolicy


@admin.register(InstructorType)
class InstructorTypeAdmin(OrganizationScopedAdmin):
    list_display = ("name", "organization", "created_at")
    list_filter = ("organization",)
    search_fields = ("name",)


@admin.register(PayRatePolicy)
class PayRatePolicyAdmin(OrganizationScopedAdmin):
    list_display = ("name", "organization", "rate_type", "amount", "is_active")
    list_filter = ("organization", "rate_type", "is_active")
    search_fields = ("name",)


@admin.register(Instructor)
class InstructorAdmin(OrganizationScopedAdmin):
    list_display = ("__str__", "organization", "type", "is_active", "is_bookable", "created_at")
    list_filter = ("organization", "is_active", "is_bookable", "type")
    search_fields = ("contact__first_name", "contact__last_name", "contact__email")
    list_select_related = ("contact", "type", "organization")
    raw_id_fields = ("contact",)
