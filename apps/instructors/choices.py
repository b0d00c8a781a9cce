"""The enums of instructors, used by the models, validation and the OpenAPI document."""

from django.db import models


class RateType(models.TextChoices):
    HOURLY = "hourly", "Hourly"
    PER_CLASS = "per_class", "Per class"
    PER_ATTENDEE = "per_attendee", "Per attendee"
