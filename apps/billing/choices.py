"""The enums of plans and memberships, used by the models and services. A plan's `visibility` uses the classes'
`Visibility` (`Public`, `Member_only`, `Private`): the same set, one OpenAPI enum."""

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


class MembershipPaymentStatus(models.TextChoices):
    """Whether the membership's current period is paid (set by staff; no payment is taken through the API)."""

    PAID = "paid", "Current period paid"
    UNPAID = "unpaid", "Current period not paid"


class CustomPeriodUnit(models.TextChoices):
    DAYS = "days", "Days"
    WEEKS = "weeks", "Weeks"
    MONTHS = "months", "Months"


class SessionUnit(models.TextChoices):
    BOOKING = "booking", "Booking"
    HOUR = "hour", "Hour"


class ValidForScope(models.TextChoices):
    CLASSES = "classes", "Classes"
    AREAS = "areas", "Areas"
    INSTRUCTORS = "instructors", "Instructors"
