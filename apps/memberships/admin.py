from django.contrib import admin

from apps.organizations.admin_scoping import (
    OrganizationScopedAdmin,
    OrganizationScopedTabularInline,
    ViewOnlyAdminMixin,
)

from .models import Membership, MembershipPeriod


class MembershipPeriodInline(ViewOnlyAdminMixin, OrganizationScopedTabularInline):
    """The billed periods and their charges, read only: renewals and charges are written by the services."""

    model = MembershipPeriod
    fields = ("start_date", "end_date", "charge", "signup_fee", "created_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ("-start_date",)


@admin.register(Membership)
class MembershipAdmin(OrganizationScopedAdmin):
    list_display = ("id", "contact", "plan", "status", "uses_remaining", "start_date", "end_date", "payment_status")
    list_filter = ("organization", "status", "payment_status")
    search_fields = ("contact__first_name", "contact__last_name", "contact__email", "plan__name")
    list_select_related = ("contact", "plan")
    raw_id_fields = ("contact", "plan", "club")
    inlines = (MembershipPeriodInline,)
