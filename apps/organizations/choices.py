from django.db import models


class Plan(models.TextChoices):
    FREE = "free", "Free"
    TRIAL = "trial", "Trial"
    STARTER = "starter", "Starter"
    PRO = "pro", "Pro"
    ENTERPRISE = "enterprise", "Enterprise"


# Plans on which API access (keys, OAuth, MCP) is locked.
API_LOCKED_PLANS = frozenset({Plan.FREE, Plan.TRIAL})


class OrganizationStatus(models.TextChoices):
    ACTIVE = "active", "Active"
    INACTIVE = "inactive", "Inactive"


class StaffRole(models.TextChoices):
    ADMIN = "admin", "Admin"
    MANAGER = "manager", "Manager"
    STAFF = "staff", "Staff"


class CredentialType(models.TextChoices):
    """The kinds of bearer credential (`credential.type` of `GET /me`)."""

    API_KEY = "api_key", "API key"
    OAUTH = "oauth", "OAuth access token"
