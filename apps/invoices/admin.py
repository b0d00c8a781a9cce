from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from apps.organizations.admin_scoping import (
    OrganizationScopedAdmin,
    OrganizationScopedTabularInline,
    ViewOnlyAdminMixin,
)

from .links import pdf_token
from .models import Invoice, InvoiceLine


def pdf_link(invoice: Invoice) -> str:
    """A fresh signed link to the invoice's PDF (valid 7 days), relative to the admin's own host."""
    token = pdf_token(invoice.organization_id, invoice.pk, invoice.organization.link_epoch)
    return reverse("invoice-pdf", args=[token])


class InvoiceLineInline(ViewOnlyAdminMixin, OrganizationScopedTabularInline):
    model = InvoiceLine
    fields = ("position", "description", "quantity", "unit_price", "amount", "tax", "transaction")
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Invoice)
class InvoiceAdmin(ViewOnlyAdminMixin, OrganizationScopedAdmin):
    """View only: invoices are issued by the services (gapless numbers, money copied from their transactions)."""

    list_display = (
        "number",
        "organization",
        "status",
        "contact",
        "issue_date",
        "due_date",
        "total",
        "amount_paid",
        "pdf",
    )
    list_filter = ("organization", "status", "issue_date")
    search_fields = ("number", "contact__first_name", "contact__last_name")
    list_select_related = ("organization", "contact")
    date_hierarchy = "issue_date"
    inlines = [InvoiceLineInline]
    readonly_fields = ("pdf",)

    @admin.display(description="PDF")
    def pdf(self, obj):
        if obj is None or obj.pk is None:
            return "-"
        return format_html('<a href="{}" target="_blank" rel="noopener">{}.pdf</a>', pdf_link(obj), obj.number)
