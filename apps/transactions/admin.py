from django.contrib import admin

from apps.organizations.admin_scoping import OrganizationScopedAdmin, ViewOnlyAdminMixin

from .models import Transaction


@admin.register(Transaction)
class TransactionAdmin(ViewOnlyAdminMixin, OrganizationScopedAdmin):
    """View only: transactions are written by the services (their amounts, refunds and events go together)."""

    list_display = (
        "id",
        "organization",
        "type",
        "source_type",
        "description",
        "amount",
        "payment_status",
        "created_at",
    )
    list_filter = ("organization", "type", "source_type", "payment_status")
    search_fields = ("description", "reference")
    list_select_related = ("organization",)
