"""Delivery of a message being sent: rendered for each contact, handed to the notification layer's channels.

Idempotent: each (message, contact) send is recorded by `apps.notifications.tasks.deliver_once` in the same
transaction as the send, so a rerun (a retried task, a second worker) sends nothing twice; a message that is no
longer `sending` is left alone. The counts are written under the message's row lock when every contact was tried.
"""

import html
import logging

from django.db import transaction
from django.utils import timezone
from django.utils.html import strip_tags

from apps.contacts.choices import ContactStatus
from apps.notifications.channels import send_email, sms_backend
from apps.notifications.tasks import deliver_once

from .choices import MessageChannel, MessageStatus
from .models import Message
from .rendering import compile_template, render
from .variables import contact_variables

logger = logging.getLogger("apps.messaging")


class Undeliverable(Exception):
    """The contact cannot receive the message on its channel (archived, no address)."""


def _send(message: Message, compiled_subject, compiled_body, contact) -> None:
    if contact.status == ContactStatus.ARCHIVED:
        raise Undeliverable("archived")
    variables = contact_variables(contact, message.organization)
    key = f"message:{message.pk}:{contact.pk}:{message.channel}"
    if message.channel == MessageChannel.EMAIL:
        if not contact.email:
            raise Undeliverable("no e-mail address")
        subject = " ".join(render(compiled_subject, variables, autoescape=False).split())
        html_body = render(compiled_body, variables, autoescape=True)
        text_body = html.unescape(strip_tags(html_body))
        deliver_once(key, lambda: send_email(to=contact.email, subject=subject, body=text_body, html_body=html_body))
    else:
        if not contact.phone:
            raise Undeliverable("no phone number")
        text = render(compiled_body, variables, autoescape=False)
        deliver_once(key, lambda: sms_backend().send(phone=contact.phone, contact_id=contact.pk, text=text))


def deliver_message(message_id: int) -> None:
    message = Message.objects.select_related("organization").filter(pk=message_id).first()
    if message is None or message.status != MessageStatus.SENDING:
        return
    compiled_subject = compile_template(message.subject or "")
    compiled_body = compile_template(message.body)
    sent = failed = 0
    for contact in message.contacts.order_by("id"):
        try:
            _send(message, compiled_subject, compiled_body, contact)
        except Undeliverable as reason:
            logger.info("message %s not sent to contact %s: %s", message.pk, contact.pk, reason)
            failed += 1
        except Exception:  # one provider refusal or bad address must not stop the others
            logger.exception("message %s could not be sent to contact %s", message.pk, contact.pk)
            failed += 1
        else:
            sent += 1
    with transaction.atomic():
        locked = Message.objects.select_for_update().get(pk=message.pk)
        if locked.status != MessageStatus.SENDING:
            return
        locked.sent_count = sent
        locked.failed_count = failed
        locked.recipients_count = sent + failed
        locked.status = MessageStatus.SENT if sent else MessageStatus.FAILED
        locked.sent_at = timezone.now()
        locked.save()
