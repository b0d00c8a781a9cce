"""The enums of classes and recurring series: one declaration each, used by models, validation, filters and the
OpenAPI document (`SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"]`)."""

from django.db import models


class ClassStatus(models.TextChoices):
    ACTIVE = "active", "Active"
    CANCELLED = "cancelled", "Cancelled"


class Visibility(models.TextChoices):
    PUBLIC = "Public", "Public"
    MEMBER_ONLY = "Member_only", "Member only"
    PRIVATE = "Private", "Private"


class TimeStatus(models.TextChoices):
    PAST = "past", "Past"
    UPCOMING = "upcoming", "Upcoming"


class AvailabilityStatus(models.TextChoices):
    AVAILABLE = "available", "Available"
    FULL = "full", "Full"


class SeriesStatus(models.TextChoices):
    ACTIVE = "active", "Active"
    PAUSED = "paused", "Paused"
    CANCELLED = "cancelled", "Cancelled"


class Frequency(models.TextChoices):
    DAILY = "daily", "Daily"
    WEEKLY = "weekly", "Weekly"
    MONTHLY = "monthly", "Monthly"


class EndsType(models.TextChoices):
    UNTIL = "until", "Until"
    AFTER = "after", "After"
    NEVER = "never", "Never"


class EditScope(models.TextChoices):
    """Which occurrences a change to one occurrence of a series applies to (`?scope=`)."""

    THIS = "this", "This occurrence"
    ALL_FUTURE = "all_future", "This and every later occurrence"
