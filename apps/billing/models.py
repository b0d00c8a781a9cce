from django.db import models

from .choices import BillingFrequency, MembershipStatus


class PlanCategory(models.Model):
    """A grouping of plans shown together."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE)
    name = models.CharField(max_length=120)
    description = models.TextField(null=True, blank=True)
    position = models.IntegerField(default=0)
    translations = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "plan categories"

    def __str__(self):
        return self.name


class Plan(models.Model):
    """A membership plan or pass that can be sold."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE, related_name="plans")
    club = models.ForeignKey("clubs.Club", null=True, blank=True, on_delete=models.SET_NULL)
    plan_category = models.ForeignKey(PlanCategory, null=True, blank=True, on_delete=models.SET_NULL)
    name = models.CharField(max_length=120)
    description = models.TextField(null=True, blank=True)
    price = models.DecimalField(max_digits=10, decimal_places=2)
    signup_fee = models.DecimalField(max_digits=10, decimal_places=2, default=0)
    billing_frequency = models.CharField(
        max_length=20, choices=BillingFrequency.choices, default=BillingFrequency.MONTHLY
    )
    custom_period = models.PositiveIntegerField(null=True, blank=True)
    custom_period_unit = models.CharField(max_length=10, null=True, blank=True)
    is_active = models.BooleanField(default=True)
    max_uses = models.PositiveIntegerField(null=True, blank=True)
    session_unit = models.CharField(max_length=10, null=True, blank=True)
    validity_period = models.PositiveIntegerField(null=True, blank=True)
    auto_renews = models.BooleanField(default=False)
    renewal_days_in_advance = models.PositiveIntegerField(default=0)
    require_payment_upfront = models.BooleanField(default=False)
    sports = models.JSONField(default=list, blank=True)
    features = models.JSONField(default=list, blank=True)
    visibility = models.CharField(max_length=12, default="Public")
    # {"scopes": ["classes", "areas", "instructors"], "classTypes": [], "areaTypes": [], "instructorTypes": []}
    valid_for = models.JSONField(default=dict, blank=True)
    translations = models.JSONField(default=dict, blank=True)
    retired_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return self.name


class Membership(models.Model):
    """A contact's subscription to a plan; seats and walk-ins can be drawn from it."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE, related_name="memberships")
    contact = models.ForeignKey("contacts.Contact", on_delete=models.CASCADE, related_name="memberships")
    plan = models.ForeignKey(Plan, on_delete=models.PROTECT, related_name="memberships")
    club = models.ForeignKey("clubs.Club", null=True, blank=True, on_delete=models.SET_NULL)
    status = models.CharField(max_length=12, choices=MembershipStatus.choices, default=MembershipStatus.ACTIVE)
    price = models.DecimalField(max_digits=10, decimal_places=2, default=0)
    signup_fee = models.DecimalField(max_digits=10, decimal_places=2, default=0)
    billing_frequency = models.CharField(max_length=20, default=BillingFrequency.MONTHLY)
    payment_status = models.CharField(max_length=10, default="unpaid")
    start_date = models.DateField()
    end_date = models.DateField(null=True, blank=True)
    next_billing_date = models.DateField(null=True, blank=True)
    uses_remaining = models.IntegerField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    resume_date = models.DateField(null=True, blank=True)
    cancel_at = models.DateField(null=True, blank=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    cancellation_reason = models.TextField(null=True, blank=True)
    source = models.CharField(max_length=20, default="admin")
    notes = models.TextField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["contact", "status"])]
