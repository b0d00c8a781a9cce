"""Enums of message drafts and templates (see docs/decisions/enums.md)."""

from django.db import models


class MessageChannel(models.TextChoices):
    """How a message or template reaches a contact."""

    EMAIL = "email", "E-mail"
    SMS = "sms", "SMS"


class MessageStatus(models.TextChoices):
    """Where a message is in its life. The API creates and edits only `draft`s; a person sends a draft from the
    admin (`sending`, then `sent`, or `failed` when no recipient could be reached). `scheduled` is reserved for
    the admin apps and never set here."""

    DRAFT = "draft", "Draft"
    SCHEDULED = "scheduled", "Scheduled"
    SENDING = "sending", "Sending"
    SENT = "sent", "Sent"
    FAILED = "failed", "Failed"
