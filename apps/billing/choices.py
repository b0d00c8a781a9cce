"""The enums of plans (a membership's billing frequency is its plan's; the membership's own enums are in
apps/memberships/choices.py). A plan's `visibility` uses the classes' `Visibility` (`Public`, `Member_only`,
`Private`): the same set, one OpenAPI enum."""

from django.db import models


class BillingFrequency(models.TextChoices):
    ONE_TIME = "one_time", "One time"
    WEEKLY = "weekly", "Weekly"
    MONTHLY = "monthly", "Monthly"
    QUARTERLY = "quarterly", "Quarterly"
    ANNUALLY = "annually", "Annually"
    CUSTOM = "custom", "Custom"


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
