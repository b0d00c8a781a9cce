from django.db import models
from django.db.models import Q

from apps.api.validators import (
    validate_https_url,
    validate_https_url_list,
    validate_social_profiles,
    validate_web_url,
)


class Club(models.Model):
    """A venue of an organization: where areas (courts, rooms) are and classes happen."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE, related_name="clubs")
    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=100)
    description = models.TextField(blank=True, default="")
    timezone = models.CharField(max_length=64, default="UTC")
    address = models.CharField(max_length=255, null=True, blank=True)
    city = models.CharField(max_length=120, null=True, blank=True)
    state = models.CharField(max_length=120, null=True, blank=True)
    country = models.CharField(max_length=2, null=True, blank=True)
    postal_code = models.CharField(max_length=20, null=True, blank=True)
    phone = models.CharField(max_length=40, null=True, blank=True)
    email = models.EmailField(null=True, blank=True)
    website = models.URLField(null=True, blank=True, validators=[validate_web_url])
    logo = models.URLField(max_length=500, null=True, blank=True, validators=[validate_https_url])
    images = models.JSONField(default=list, blank=True, validators=[validate_https_url_list])
    amenities = models.JSONField(default=list, blank=True, help_text="Amenity ids, resolved through Amenity.")
    sports = models.JSONField(default=list, blank=True)
    social_profiles = models.JSONField(default=dict, blank=True, validators=[validate_social_profiles])
    latitude = models.FloatField(null=True, blank=True)
    longitude = models.FloatField(null=True, blank=True)
    # {"monday": [["08:00", "22:00"]], ...}; a missing or empty day is closed.
    opening_hours = models.JSONField(default=dict, blank=True)
    closed_dates = models.JSONField(default=list, blank=True, help_text="ISO dates the club is closed.")
    closing_date = models.DateField(null=True, blank=True, help_text="Permanent closing date.")
    marketplace_listed = models.BooleanField(default=False)
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["organization", "slug"], name="uniq_club_slug"),
            # The marketplace addresses a club by slug alone (`/clubs/{slug}`): unique among listed clubs.
            models.UniqueConstraint(
                fields=["slug"],
                condition=Q(marketplace_listed=True),
                name="uniq_listed_club_slug",
                violation_error_message="Another club listed on the marketplace already uses this slug.",
            ),
        ]
        indexes = [
            models.Index(fields=["organization", "created_at", "id"], name="club_org_created"),
            # The marketplace's nearest-first search: a bounding box on the coordinates of listed, active clubs.
            models.Index(
                fields=["latitude", "longitude"],
                condition=Q(marketplace_listed=True, is_active=True),
                name="club_marketplace_geo",
            ),
        ]

    def __str__(self):
        return self.name


class Amenity(models.Model):
    """A catalogue amenity (shared by all organizations): id, localized names, icon, category."""

    code = models.SlugField(max_length=60, unique=True)
    names = models.JSONField(default=dict, help_text="{language: name}")
    icon = models.CharField(max_length=60, null=True, blank=True)
    category = models.CharField(max_length=60, null=True, blank=True)

    class Meta:
        ordering = ["code"]
        verbose_name_plural = "amenities"

    def __str__(self):
        return self.code


class ClubReview(models.Model):
    """A review of a club; public ones feed the club's `rating`."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE)
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="reviews")
    rating = models.PositiveSmallIntegerField()
    comment = models.TextField(blank=True, default="")
    is_public = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)


class AreaType(models.Model):
    """A kind of area (padel court, studio) with an optional player limit."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE, related_name="area_types")
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=120)
    max_players = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["organization", "slug"], name="uniq_area_type_slug")]
        indexes = [models.Index(fields=["organization", "created_at", "id"], name="area_type_org_created")]

    def __str__(self):
        return self.name


class Area(models.Model):
    """A bookable space of a club: a court or a room."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE, related_name="areas")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="areas")
    area_type = models.ForeignKey(AreaType, null=True, blank=True, on_delete=models.SET_NULL, related_name="areas")
    name = models.CharField(max_length=120)
    sports = models.JSONField(default=list, blank=True)
    hourly_rate = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    is_indoor = models.BooleanField(default=False)
    is_active = models.BooleanField(default=True)
    images = models.JSONField(default=list, blank=True)
    position = models.IntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["position", "id"]
        indexes = [models.Index(fields=["organization", "position", "id"], name="area_org_position")]

    def __str__(self):
        return f"{self.club} / {self.name}"
