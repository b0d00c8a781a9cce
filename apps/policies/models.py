"""Booking policies and document rules: stored and served through the API, not enforced on API writes."""

from django.db import models
from django.db.models import Q

from .choices import DocumentAppliesTo, DocumentRequirement, DocumentType, PolicyAppliesTo


class BookingPolicy(models.Model):
    """Booking limits of areas, classes or instructors. Exactly one default per `applies_to` once it has any
    policy (a partial unique constraint; writes that move the default lock the organization row)."""

    organization = models.ForeignKey(
        "organizations.Organization", on_delete=models.CASCADE, related_name="booking_policies"
    )
    name = models.CharField(max_length=120)
    applies_to = models.CharField(max_length=20, choices=PolicyAppliesTo.choices)
    club = models.ForeignKey("clubs.Club", null=True, blank=True, on_delete=models.CASCADE)
    area_types = models.ManyToManyField("clubs.AreaType", blank=True, related_name="booking_policies")
    class_types = models.ManyToManyField("classes.ClassType", blank=True, related_name="booking_policies")
    advance_booking_days = models.PositiveIntegerField(null=True, blank=True)
    min_advance_minutes = models.PositiveIntegerField(null=True, blank=True)
    max_duration_minutes = models.PositiveIntegerField(null=True, blank=True)
    cancellation_window_hours = models.PositiveIntegerField(null=True, blank=True)
    late_cancellation_fee = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    max_active_bookings_per_contact = models.PositiveIntegerField(null=True, blank=True)
    is_default = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["id"]
        verbose_name_plural = "booking policies"
        constraints = [
            models.UniqueConstraint(
                fields=["organization", "applies_to"],
                condition=Q(is_default=True),
                name="one_default_booking_policy_per_applies_to",
                violation_error_message="Another policy is already the default for this kind of booking; "
                "unset it there first.",
            )
        ]

    def __str__(self):
        return self.name


class DocumentRule(models.Model):
    """Who must sign or accept which document."""

    organization = models.ForeignKey(
        "organizations.Organization", on_delete=models.CASCADE, related_name="document_rules"
    )
    name = models.CharField(max_length=120)
    document_type = models.CharField(max_length=20, choices=DocumentType.choices)
    document_url = models.URLField(max_length=2000, null=True, blank=True)
    # The document's text as a content item of the organization (deleting the item leaves the rule without it).
    content_item = models.ForeignKey(
        "content.ContentItem", null=True, blank=True, on_delete=models.SET_NULL, related_name="document_rules"
    )
    requirement = models.CharField(max_length=20, choices=DocumentRequirement.choices)
    applies_to = models.CharField(max_length=20, choices=DocumentAppliesTo.choices)
    plans = models.ManyToManyField("billing.Plan", blank=True, related_name="document_rules")
    class_types = models.ManyToManyField("classes.ClassType", blank=True, related_name="document_rules")
    events = models.ManyToManyField("events.Event", blank=True, related_name="document_rules")
    renew_every_days = models.PositiveIntegerField(null=True, blank=True)
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["id"]

    def __str__(self):
        return self.name
