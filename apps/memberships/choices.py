from django.db import models


class CancelEffective(models.TextChoices):
    """When `POST /memberships/{id}/cancel` takes effect."""

    IMMEDIATELY = "immediately", "Cancel now"
    END_OF_PERIOD = "end_of_period", "Cancel when the paid period ends"


class MembershipSource(models.TextChoices):
    """Where a membership was sold."""

    API = "api", "Platform API"
    ADMIN = "admin", "Admin"
