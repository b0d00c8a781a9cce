"""Notification channels: e-mail (Django's backend), in-app (stored per contact), messaging app and SMS
(pluggable providers)."""

import logging

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.utils.module_loading import import_string

logger = logging.getLogger("apps.notifications")


class TextBackend:
    """Interface of a text-message provider (a messaging app such as WhatsApp, or SMS): `send` raises when the
    provider refuses the message."""

    def send(self, *, phone: str | None, contact_id: int, text: str) -> None:
        raise NotImplementedError


class LoggingTextBackend(TextBackend):
    """Development backend: logs the message; each subclass's `sent` keeps its messages for tests."""

    channel = "text message"
    sent: list[dict] = []

    def send(self, *, phone, contact_id, text):
        type(self).sent.append({"phone": phone, "contactId": contact_id, "text": text})
        logger.info("%s to contact %s", self.channel, contact_id)


class LoggingMessagingBackend(LoggingTextBackend):
    channel = "messaging-app message"
    sent: list[dict] = []


class LoggingSmsBackend(LoggingTextBackend):
    channel = "SMS"
    sent: list[dict] = []


def messaging_backend() -> TextBackend:
    return import_string(settings.MESSAGING_BACKEND)()


def sms_backend() -> TextBackend:
    return import_string(settings.SMS_BACKEND)()


def send_email(*, to: str, subject: str, body: str, attachments=(), html_body: str | None = None) -> None:
    """`body` is the plain text; `html_body`, when given, is attached as its HTML alternative. attachments:
    (filename, content, mimetype) tuples."""
    message = EmailMultiAlternatives(subject=subject, body=body, from_email=settings.DEFAULT_FROM_EMAIL, to=[to])
    if html_body is not None:
        message.attach_alternative(html_body, "text/html")
    for attachment in attachments:
        message.attach(*attachment)
    message.send()
