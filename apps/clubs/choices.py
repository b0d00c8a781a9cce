"""The enums of clubs: one declaration each, used by models, validation and the OpenAPI document."""

from django.db import models


class DayOfWeek(models.TextChoices):
    """Week days in the order the API lists them (Sunday first)."""

    SUNDAY = "sunday", "Sunday"
    MONDAY = "monday", "Monday"
    TUESDAY = "tuesday", "Tuesday"
    WEDNESDAY = "wednesday", "Wednesday"
    THURSDAY = "thursday", "Thursday"
    FRIDAY = "friday", "Friday"
    SATURDAY = "saturday", "Saturday"


# Indexed by `date.weekday()` (Monday is 0): the keys of a club's opening hours.
WEEKDAYS = (
    DayOfWeek.MONDAY,
    DayOfWeek.TUESDAY,
    DayOfWeek.WEDNESDAY,
    DayOfWeek.THURSDAY,
    DayOfWeek.FRIDAY,
    DayOfWeek.SATURDAY,
    DayOfWeek.SUNDAY,
)
