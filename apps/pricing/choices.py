"""The enums of pricing rules, used by the model, the request bodies, the response shape and the quote."""

from django.db import models


class Audience(models.TextChoices):
    EVERYONE = "everyone", "Everyone"
    MEMBERS = "members", "Members"
    NON_MEMBERS = "non_members", "Non-members"


class AdjustmentType(models.TextChoices):
    SET_HOURLY_RATE = "set_hourly_rate", "Set the hourly rate"
    PERCENT = "percent", "Percent of the hourly rate"
    AMOUNT = "amount", "Amount added to the hourly rate"
