from django.db import models

from .choices import RateType


class InstructorType(models.Model):
    """A category of instructor (coach, personal trainer)."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE)
    name = models.CharField(max_length=120)
    description = models.TextField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return self.name


class PayRatePolicy(models.Model):
    """How an instructor is paid: hourly, per class or per attendee."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE)
    name = models.CharField(max_length=120)
    rate_type = models.CharField(max_length=20, choices=RateType.choices)
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "pay rate policies"

    def __str__(self):
        return self.name


class Instructor(models.Model):
    """A contact who teaches. Grants no admin login."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE, related_name="instructors")
    contact = models.OneToOneField("contacts.Contact", on_delete=models.CASCADE, related_name="instructor")
    type = models.ForeignKey(InstructorType, null=True, blank=True, on_delete=models.SET_NULL)
    pay_rate_policy = models.ForeignKey(PayRatePolicy, null=True, blank=True, on_delete=models.SET_NULL)
    sports = models.JSONField(default=list, blank=True)
    experience = models.CharField(max_length=255, null=True, blank=True)
    hourly_rate = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    bio = models.JSONField(null=True, blank=True, help_text="Block-editor document.")
    certifications = models.JSONField(default=list, blank=True)
    is_active = models.BooleanField(default=True)
    is_bookable = models.BooleanField(default=True)
    # [{"dayOfWeek": "monday", "startTime": "09:00", "endTime": "13:00", "clubId": null}]
    weekly_availability = models.JSONField(default=list, blank=True)
    # Part of the signed private calendar-feed URL; rotating the feed increments it, so every earlier URL is 404.
    calendar_feed_version = models.PositiveIntegerField(default=1, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return str(self.contact)
