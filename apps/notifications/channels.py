"""Notification channels: e-mail (Django's backend), in-app (stored per contact), messaging app (pluggable)."""

import logging

from django.conf import settings
from django.core.mail import EmailMessage
from django.utils.module_loading import import_string

logger = logging.getLogger("apps.notifications")


class MessagingBackend:
    """Interface of a messaging-app provider (WhatsApp-like)."""

    def send(self, *, phone: str | None, contact_id: int, text: str) -> None:
        raise NotImplementedError


class LoggingMessagingBackend(MessagingBackend):
    """Development backend: logs the message; `sent` keeps them for tests."""

    sent: list[dict] = []

    def send(self, *, phone, contact_id, text):
        LoggingMessagingBackend.sent.append({"phone": phone, "contactId": contact_id, "text": text})
        logger.info("messaging-app message to contact %s", contact_id)


def messaging_backend() -> MessagingBackend:
    return import_string(settings.MESSAGING_BACKEND)()


def send_email(*, to: str, subject: str, body: str, attachments=()) -> None:
    """attachments: (filename, content, mimetype) tuples."""
    message = EmailMessage(subject=subject, body=body, from_email=settings.DEFAULT_FROM_EMAIL, to=[to])
    for attachment in attachments:
        message.attach(*attachment)
    message.send()
