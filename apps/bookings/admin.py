from django.contrib import admin

from apps.organizations.admin_scoping import OrganizationScopedAdmin, OrganizationScopedTabularInline

from .models import Booking, CheckIn, Player, WaitlistEntry


class PlayerInline(OrganizationScopedTabularInline):
    model = Player
    extra = 0
    raw_id_fields = ("contact",)
    exclude = ("organization",)


@admin.register(Booking)
class BookingAdmin(OrganizationScopedAdmin):
    list_display = ("id", "type", "status", "organization", "club", "contact", "start_time", "payment_status", "source")
    list_filter = ("organization", "type", "status", "payment_status", "source")
    search_fields = ("contact__first_name", "contact__last_name", "contact__email", "booker_name", "external_id")
    list_select_related = ("organization", "club", "contact")
    raw_id_fields = ("contact", "class_occurrence", "area", "membership", "event", "event_ticket")
    date_hierarchy = "start_time"
    inlines = [PlayerInline]


@admin.register(WaitlistEntry)
class WaitlistEntryAdmin(OrganizationScopedAdmin):
    list_display = ("id", "class_occurrence", "contact", "position", "status", "notified_at", "created_at")
    list_filter = ("organization", "status")
    search_fields = ("contact__first_name", "contact__last_name", "contact__email")
    list_select_related = ("class_occurrence", "contact")
    raw_id_fields = ("class_occurrence", "contact", "booking")


@admin.register(CheckIn)
class CheckInAdmin(OrganizationScopedAdmin):
    list_display = ("id", "method", "club", "contact", "class_occurrence", "booking", "checked_in_at", "source")
    list_filter = ("organization", "method", "source")
    search_fields = ("contact__first_name", "contact__last_name", "contact__email")
    list_select_related = ("club", "contact", "class_occurrence")
    raw_id_fields = ("booking", "membership", "class_occurrence", "contact")
    date_hierarchy = "checked_in_at"
