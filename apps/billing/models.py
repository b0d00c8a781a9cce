from django.db import models
from django.db.models import Q

from apps.classes.choices import Visibility

from .choices import BillingFrequency, CustomPeriodUnit, SessionUnit


class RevenueAccount(models.Model):
    """An account of the organization's chart of accounts that sales post to; exactly one is the default."""

    organization = models.ForeignKey(
        "organizations.Organization", on_delete=models.CASCADE, related_name="revenue_accounts"
    )
    name = models.CharField(max_length=120)
    code = models.CharField(max_length=40, null=True, blank=True)
    description = models.TextField(null=True, blank=True)
    is_default = models.BooleanField(default=False)
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["organization"], condition=Q(is_default=True), name="billing_one_default_revenue_account"
            ),
            models.CheckConstraint(
                condition=Q(is_default=False) | Q(is_active=True), name="billing_default_revenue_account_active"
            ),
        ]

    def __str__(self):
        return self.name


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
    # null: the organization's default account, resolved at sale time (`services.revenue_account_for_plan`)
    revenue_account = models.ForeignKey(
        RevenueAccount, null=True, blank=True, on_delete=models.PROTECT, related_name="plans"
    )
    name = models.CharField(max_length=120)
    description = models.TextField(null=True, blank=True)
    price = models.DecimalField(max_digits=10, decimal_places=2)
    signup_fee = models.DecimalField(max_digits=10, decimal_places=2, default=0)
    billing_frequency = models.CharField(
        max_length=20, choices=BillingFrequency.choices, default=BillingFrequency.MONTHLY
    )
    custom_period = models.PositiveIntegerField(null=True, blank=True)
    custom_period_unit = models.CharField(max_length=10, choices=CustomPeriodUnit.choices, null=True, blank=True)
    is_active = models.BooleanField(default=True)
    max_uses = models.PositiveIntegerField(null=True, blank=True)
    session_unit = models.CharField(max_length=10, choices=SessionUnit.choices, null=True, blank=True)
    validity_period = models.PositiveIntegerField(null=True, blank=True, help_text="Days.")
    auto_renews = models.BooleanField(default=False)
    renewal_days_in_advance = models.PositiveIntegerField(default=0)
    require_payment_upfront = models.BooleanField(default=False)
    sports = models.JSONField(default=list, blank=True)
    features = models.JSONField(default=list, blank=True)
    visibility = models.CharField(max_length=12, choices=Visibility.choices, default=Visibility.PUBLIC)
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
