from django.db import models

from .choices import AdjustmentType, Audience


class PricingRule(models.Model):
    """An adjustment of an area's hourly rate for the bookings it matches (see `apps/pricing/quote.py`).

    Empty lists match everything; `start_minute`/`end_minute` are minutes of the club's day (0..1440, end
    exclusive), both null for the whole day.
    """

    organization = models.ForeignKey(
        "organizations.Organization", on_delete=models.CASCADE, related_name="pricing_rules"
    )
    club = models.ForeignKey("clubs.Club", null=True, blank=True, on_delete=models.CASCADE)
    name = models.CharField(max_length=120)
    area_ids = models.JSONField(default=list, blank=True)
    area_type_ids = models.JSONField(default=list, blank=True)
    sports = models.JSONField(default=list, blank=True)
    days_of_week = models.JSONField(default=list, blank=True)
    start_minute = models.PositiveSmallIntegerField(null=True, blank=True)
    end_minute = models.PositiveSmallIntegerField(null=True, blank=True)
    valid_from = models.DateField(null=True, blank=True)
    valid_until = models.DateField(null=True, blank=True)
    audience = models.CharField(max_length=12, choices=Audience.choices, default=Audience.EVERYONE)
    plan_ids = models.JSONField(default=list, blank=True)
    adjustment_type = models.CharField(max_length=16, choices=AdjustmentType.choices)
    value = models.DecimalField(max_digits=10, decimal_places=2)
    priority = models.IntegerField(default=0)
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["organization", "is_active"])]

    def __str__(self):
        return self.name
