"""Template and Message shapes. A page costs one query: a message's contact ids are an SQL subquery."""

import datetime as dt
from typing import Annotated, TypedDict

from apps.api.expressions import related_ids
from apps.api.resources import Describe, PresentContext, Resource

from . import models
from .choices import MessageChannel, MessageStatus


class Template(TypedDict):
    id: int
    name: str
    channel: MessageChannel
    subject: Annotated[str | None, Describe("E-mail only (required there); null for SMS.")]
    body: Annotated[
        str,
        Describe(
            "Django template syntax, sandboxed: `{{ variable }}` placeholders, `{% if %}`; SMS at most 1600 "
            "characters; an e-mail body is HTML."
        ),
    ]
    variables: Annotated[
        list[str], Describe("Read-only: the variable names the subject and body read, in order of first use.")
    ]
    isActive: bool
    createdAt: dt.datetime
    updatedAt: dt.datetime


class MessageDelivery(TypedDict):
    recipients: Annotated[int, Describe("Contacts the message is (or was) addressed to.")]
    sent: Annotated[int, Describe("Handed to the e-mail or SMS provider.")]
    delivered: Annotated[int, Describe("Confirmed delivered by the provider (0 until providers report receipts).")]
    failed: Annotated[int, Describe("Not sent: archived contact, no address on the channel, or refused.")]
    opened: Annotated[int, Describe("Opened by the recipient (0 until open tracking exists).")]


class Message(TypedDict):
    id: int
    channel: MessageChannel
    subject: Annotated[str | None, Describe("E-mail only (required there); null for SMS.")]
    body: Annotated[str, Describe("Rendered for each contact when sent (the template syntax of Template.body).")]
    templateId: Annotated[int | None, Describe("The template it was drafted from; null when none or deleted.")]
    contactIds: list[int]
    status: Annotated[
        MessageStatus, Describe("Only `draft` is set through the API; a person sends a draft from the admin app.")
    ]
    delivery: MessageDelivery
    sentAt: dt.datetime | None
    createdAt: dt.datetime
    updatedAt: dt.datetime


class MessageResource(Resource):
    shape = Message
    model = models.Message
    columns = ("contact_ids", "recipients_count", "sent_count", "delivered_count", "failed_count", "opened_count")

    def annotate(self, queryset):
        return queryset.annotate(
            contact_ids=related_ids(models.Message.contacts.through.objects, "message_id", "contact_id")
        )

    def present(self, row: dict, ctx: PresentContext) -> Message:
        contact_ids = sorted(row["contact_ids"] or ())
        draft = row["status"] == MessageStatus.DRAFT
        return self.body(
            row,
            ctx,
            contactIds=contact_ids,
            delivery={
                "recipients": len(contact_ids) if draft else row["recipients_count"],
                "sent": row["sent_count"],
                "delivered": row["delivered_count"],
                "failed": row["failed_count"],
                "opened": row["opened_count"],
            },
        )


TEMPLATE = Resource(Template, models.MessageTemplate)
MESSAGE = MessageResource()
