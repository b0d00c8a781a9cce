from django.db import models


class MembershipStatus(models.TextChoices):
    ACTIVE = "active", "Active"
    PAUSED = "paused", "Paused"
    CANCELLED = "cancelled", "Cancelled"
    EXPIRED = "expired", "Expired"


class MembershipPaymentStatus(models.TextChoices):
    """Whether the membership's current period is paid (set by staff; no payment is taken through the API)."""

    PAID = "paid", "Current period paid"
    UNPAID = "unpaid", "Current period not paid"


class CancelEffective(models.TextChoices):
    """When `POST /memberships/{id}/cancel` takes effect."""

    IMMEDIATELY = "immediately", "Cancel now"
    END_OF_PERIOD = "end_of_period", "Cancel when the paid period ends"


class MembershipSource(models.TextChoices):
    """Where a membership was sold."""

    API = "api", "Platform API"
    ADMIN = "admin", "Admin"
