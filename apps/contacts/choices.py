"""The enums of contacts, used by the model, validation, filters and the OpenAPI document."""

from django.db import models


class ContactStatus(models.TextChoices):
    ACTIVE = "active", "Active"
    ARCHIVED = "archived", "Archived"
