"""The enums of plans and memberships, used by the models and services."""

from django.db import models


class BillingFrequency(models.TextChoices):
    ONE_TIME = "one_time", "One time"
    WEEKLY = "weekly", "Weekly"
    MONTHLY = "monthly", "Monthly"
    QUARTERLY = "quarterly", "Quarterly"
    ANNUALLY = "annually", "Annually"
    CUSTOM = "custom", "Custom"


class MembershipStatus(models.TextChoices):
    ACTIVE = "active", "Active"
    PAUSED = "paused", "Paused"
    CANCELLED = "cancelled", "Cancelled"
    EXPIRED = "expired", "Expired"
