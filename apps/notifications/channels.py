"""Notification channels: e-mail (Django's backend), in-app (stored per contact), messaging app and SMS
(pluggable providers)."""

import logging

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
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


class SmsBackend:
    """Interface of an SMS provider: `send` raises when the provider refuses the message."""

    def send(self, *, phone: str, contact_id: int, text: str) -> None:
        raise NotImplementedError


class LoggingSmsBackend(SmsBackend):
    """Development backend: logs the SMS; `sent` keeps them for tests."""

    sent: list[dict] = []

    def send(self, *, phone, contact_id, text):
        LoggingSmsBackend.sent.append({"phone": phone, "contactId": contact_id, "text": text})
        logger.info("SMS to contact %s", contact_id)


def sms_backend() -> SmsBackend:
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
