"""The enums of events: one declaration each, used by models, validation, filters and the OpenAPI document
(`SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"]`)."""

from django.db import models


class EventStatus(models.TextChoices):
    DRAFT = "draft", "Draft"
    PUBLISHED = "published", "Published"
    CANCELLED = "cancelled", "Cancelled"


# An event in one of these may still be published, unpublished, edited or cancelled.
OPEN_EVENT_STATUSES = (EventStatus.DRAFT, EventStatus.PUBLISHED)
