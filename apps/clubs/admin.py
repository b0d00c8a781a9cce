"""Admin for clubs (opening hours, closed dates, closing date), areas, area types and the amenity catalogue.

Tenancy comes from `OrganizationScopedAdmin` (superusers see everything, other staff users only their
organizations' rows); the amenity catalogue is shared by every organization, so only superusers change it.
"""

import datetime as dt
import re

from django import forms
from django.contrib import admin

from apps.kernel import clock
from apps.organizations.admin_scoping import (
    OrganizationScopedAdmin,
    OrganizationScopedForm,
    OrganizationScopedTabularInline,
    SuperuserWritesAdminMixin,
    https_url_formfield,
)

from .models import Amenity, Area, AreaType, Club, ClubReview
from .services import WEEKDAYS

HHMM = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$|^24:00$")


class ClubForm(OrganizationScopedForm):
    class Meta:
        model = Club
        formfield_callback = https_url_formfield
        fields = (
            "organization", "name", "slug", "description", "is_active", "marketplace_listed",
            "address", "city", "state", "country", "postal_code", "latitude", "longitude",
            "phone", "email", "website", "social_profiles", "logo", "images", "amenities", "sports",
            "timezone", "opening_hours", "closed_dates", "closing_date",
        )  # fmt: skip
        help_texts = {
            "opening_hours": 'Per weekday, wall-clock intervals: {"monday": [["08:00", "22:00"]], ...}; '
            "a missing or empty day is closed.",
            "closed_dates": 'A list of dates: ["2026-12-25", "2027-01-01"].',
        }

    def clean_timezone(self):
        value = self.cleaned_data["timezone"]
        if not clock.is_zone_name(value):
            raise forms.ValidationError("Not an IANA time zone (e.g. Europe/Madrid).")
        return value

    def clean_opening_hours(self):
        value = self.cleaned_data["opening_hours"] or {}
        if not isinstance(value, dict):
            raise forms.ValidationError("Must be an object keyed by weekday.")
        for day, intervals in value.items():
            if day not in WEEKDAYS:
                raise forms.ValidationError(f"Unknown weekday `{day}`; use {', '.join(WEEKDAYS)}.")
            if not isinstance(intervals, list):
                raise forms.ValidationError(f"`{day}` must be a list of [opens, closes] pairs.")
            for pair in intervals:
                ok = isinstance(pair, list | tuple) and len(pair) == 2 and all(HHMM.match(str(t)) for t in pair)
                if not ok or pair[0] == "24:00" or (pair[1] != "24:00" and pair[1] <= pair[0]):
                    raise forms.ValidationError(f"`{day}`: {pair!r} is not an [HH:MM, HH:MM] pair with opens < closes.")
        return value

    def clean_closed_dates(self):
        value = self.cleaned_data["closed_dates"] or []
        if not isinstance(value, list):
            raise forms.ValidationError("Must be a list of dates.")
        try:
            return sorted({dt.date.fromisoformat(str(d)).isoformat() for d in value})
        except ValueError:
            raise forms.ValidationError("Every closed date must be YYYY-MM-DD.")


class AreaInline(OrganizationScopedTabularInline):
    model = Area
    fields = ("name", "area_type", "sports", "hourly_rate", "is_indoor", "is_active", "position")
    extra = 0
    show_change_link = True


@admin.register(Club)
class ClubAdmin(OrganizationScopedAdmin):
    form = ClubForm
    list_display = ("name", "slug", "organization", "city", "timezone", "is_active", "marketplace_listed")
    list_filter = ("is_active", "marketplace_listed", "organization")
    search_fields = ("name", "slug", "city")
    list_select_related = ("organization",)
    inlines = [AreaInline]
    fieldsets = (
        (None, {"fields": ("organization", "name", "slug", "description", "is_active", "marketplace_listed")}),
        ("Location", {"fields": ("address", "city", "state", "country", "postal_code", "latitude", "longitude")}),
        ("Contact", {"fields": ("phone", "email", "website", "social_profiles")}),
        ("Media and features", {"fields": ("logo", "images", "amenities", "sports")}),
        ("Hours", {"fields": ("timezone", "opening_hours", "closed_dates", "closing_date")}),
    )


@admin.register(AreaType)
class AreaTypeAdmin(OrganizationScopedAdmin):
    list_display = ("name", "slug", "organization", "max_players", "created_at")
    list_filter = ("organization",)
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}


@admin.register(Area)
class AreaAdmin(OrganizationScopedAdmin):
    exclude = ("organization",)
    list_display = ("name", "club", "area_type", "hourly_rate", "is_indoor", "is_active", "position")
    list_filter = ("is_active", "is_indoor", "club__organization")
    search_fields = ("name", "club__name")
    list_select_related = ("club", "area_type")

    def save_model(self, request, obj, form, change):
        obj.organization_id = obj.club.organization_id
        super().save_model(request, obj, form, change)


@admin.register(ClubReview)
class ClubReviewAdmin(OrganizationScopedAdmin):
    exclude = ("organization",)
    list_display = ("club", "rating", "is_public", "created_at")
    list_filter = ("is_public", "rating")
    list_select_related = ("club",)

    def save_model(self, request, obj, form, change):
        obj.organization_id = obj.club.organization_id
        super().save_model(request, obj, form, change)


@admin.register(Amenity)
class AmenityAdmin(SuperuserWritesAdminMixin, admin.ModelAdmin):
    list_display = ("code", "icon", "category")
    search_fields = ("code",)
