"""The enums of the marketplace."""

from django.db import models


class OfferDuration(models.IntegerChoices):
    """Lengths of a court time an offer search may ask for, in minutes."""

    MINUTES_30 = 30, "30 minutes"
    MINUTES_60 = 60, "60 minutes"
    MINUTES_90 = 90, "90 minutes"
    MINUTES_120 = 120, "120 minutes"
