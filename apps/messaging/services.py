"""Writes of message templates and message drafts, and the start of a send (admin only).

Templates and messages are text in the sandboxed template language (`rendering`): every write compiles the subject
and the body, so a text the sandbox refuses never gets stored. A message row is locked by every edit, delete and
send, and its status is checked under that lock: a draft being sent cannot be edited or deleted at the same time.
No domain events: the webhook event table lists none for messages or templates.
"""

from django.db import transaction

from apps.api.exceptions import Conflict, InvalidStateTransition, NotFound, ValidationFailed
from apps.kernel.queueing import queue_after_commit
from apps.kernel.records import set_fields

from . import tasks
from .choices import MessageChannel, MessageStatus
from .models import Message, MessageTemplate
from .rendering import TemplateError, compile_template, variables_of
from .variables import CONTACT_VARIABLES

SMS_MAX_CHARACTERS = 1600
SUBJECT_REQUIRED = "Required for e-mail."
NO_SMS_SUBJECT = "SMS has no subject; send null or leave it out."


def check_text(channel: str, subject: str | None, body: str, *, subject_sent: bool) -> str | None:
    """The subject to store for `channel` (None for SMS); 400 naming the field for a missing e-mail subject, an SMS
    subject that was sent, an SMS body over 1600 characters, or a text the sandbox refuses."""
    errors = {}
    if channel == MessageChannel.EMAIL:
        if not (subject or "").strip():
            errors["subject"] = [SUBJECT_REQUIRED]
    else:
        if subject_sent and (subject or "").strip():
            errors["subject"] = [NO_SMS_SUBJECT]
        subject = None
        if len(body) > SMS_MAX_CHARACTERS:
            errors["body"] = [f"At most {SMS_MAX_CHARACTERS} characters for SMS ({len(body)} given)."]
    for field, text in (("subject", subject), ("body", body)):
        if text and field not in errors:
            try:
                compile_template(text)
            except TemplateError as exc:
                errors[field] = [str(exc)]
    if errors:
        raise ValidationFailed(errors)
    return subject


def _apply(row, data: dict) -> None:
    """Set `data` on `row` and check its text as it will be stored (a PATCH may change only the channel)."""
    set_fields(row, data)
    row.subject = check_text(row.channel, row.subject, row.body, subject_sent="subject" in data)


# -- templates ----------------------------------------------------------------------------------------------------


def _save_template(template: MessageTemplate, data: dict) -> MessageTemplate:
    _apply(template, data)
    template.variables = variables_of(template.subject, template.body)
    template.save()
    return template


@transaction.atomic
def create_template(organization, data: dict) -> MessageTemplate:
    """`data` holds model field names (validated input)."""
    return _save_template(MessageTemplate(organization=organization), data)


@transaction.atomic
def update_template(template: MessageTemplate, data: dict) -> MessageTemplate:
    locked = MessageTemplate.objects.select_for_update().get(pk=template.pk)
    return _save_template(locked, data)


# -- messages -----------------------------------------------------------------------------------------------------


def _check_template(message: Message, template_sent: bool) -> None:
    template = message.template
    if template is None:
        return
    if template_sent and not template.is_active:
        raise ValidationFailed({"templateId": ["The template is inactive."]})
    if template.channel != message.channel:
        raise ValidationFailed(
            {"templateId": [f"The template is for `{template.channel}`; the message is `{message.channel}`."]}
        )


def _save_message(message: Message, data: dict) -> Message:
    data = dict(data)
    data.pop("status", None)  # only `draft` gets through validation, and a message is written only as a draft
    contact_ids = data.pop("contact_ids", None)
    _apply(message, data)
    _check_template(message, template_sent="template" in data)
    message.save()
    if contact_ids is not None:
        message.contacts.set(contact_ids)
    return message


@transaction.atomic
def create_message(organization, data: dict) -> Message:
    """A draft: nothing is sent."""
    return _save_message(Message(organization=organization, status=MessageStatus.DRAFT), data)


def _locked_draft(message: Message) -> Message:
    locked = Message.objects.select_for_update().get(pk=message.pk)
    if locked.status != MessageStatus.DRAFT:
        raise InvalidStateTransition(locked.status, "Only draft messages can be changed or deleted.")
    return locked


@transaction.atomic
def update_message(message: Message, data: dict) -> Message:
    return _save_message(_locked_draft(message), data)


@transaction.atomic
def delete_message(message: Message) -> None:
    _locked_draft(message).delete()


@transaction.atomic
def start_sending(message: Message) -> Message:
    """Admin only: the draft becomes `sending` and its delivery is queued after commit (`tasks.deliver_message`
    renders it for each contact and records the counts). 409 when it is not a draft, has no recipients or reads a
    variable that contacts do not provide."""
    locked = Message.objects.select_for_update().filter(pk=message.pk).first()
    if locked is None:  # deleted since the admin listed it
        raise NotFound("The message no longer exists.")
    if locked.status != MessageStatus.DRAFT:
        raise InvalidStateTransition(locked.status, f"Only drafts can be sent; this message is `{locked.status}`.")
    unknown = [name for name in variables_of(locked.subject, locked.body) if name not in CONTACT_VARIABLES]
    if unknown:
        names = ", ".join(f"`{name}`" for name in unknown)
        available = ", ".join(f"`{name}`" for name in CONTACT_VARIABLES)
        raise Conflict(f"The message reads {names}, which no contact provides (available: {available}).")
    recipients = locked.contacts.count()
    if not recipients:
        raise Conflict("The draft has no recipients.")
    locked.status = MessageStatus.SENDING
    locked.recipients_count = recipients
    locked.save(update_fields=["status", "recipients_count", "updated_at"])
    message_id = locked.pk
    queue_after_commit(tasks.deliver_message.delay, message_id)
    return locked
