"""Webhook, Delivery and the event Envelope as the API shows them."""

import datetime as dt
from typing import Annotated, Any, NotRequired, TypedDict

from apps.api.resources import Describe, PresentContext, Resource

from . import models
from .choices import DeliveryStatus, DisabledReason


class Webhook(TypedDict):
    id: int
    url: str
    description: str
    events: Annotated[list[str], Describe('Event types, or ["*"] for every type the stored scopes allow.')]
    isActive: bool
    disabledReason: DisabledReason | None
    secret: Annotated[
        NotRequired[str],
        Describe("`whsec_…`, only in the answer of the create and of `rotate-secret` (shown once)."),
    ]
    createdAt: dt.datetime
    updatedAt: dt.datetime


class WebhookResource(Resource):
    shape = Webhook
    model = models.WebhookSubscription


class Delivery(TypedDict):
    id: int
    eventId: str
    eventType: str
    status: DeliveryStatus
    attempts: int
    lastAttemptAt: dt.datetime | None
    nextAttemptAt: dt.datetime | None
    responseStatus: int | None
    responseBody: Annotated[str | None, Describe("The start of the receiver's answer (at most 1 KiB).")]
    durationMs: int | None
    error: Annotated[
        str | None, Describe("Why the last attempt got no usable answer (timeout, refused address, redirect, …).")
    ]
    createdAt: dt.datetime


class DeliveryResource(Resource):
    shape = Delivery
    model = models.WebhookDelivery
    columns = ("last_error",)

    def present(self, row, ctx: PresentContext) -> Delivery:
        return self.body(
            row, ctx, responseBody=row["response_body"] if row["attempts"] else None, error=row["last_error"] or None
        )


class Envelope(TypedDict):
    """An event as webhooks deliver it and the event feed lists it."""

    id: Annotated[str, Describe("`evt_` + a ULID; the `webhook-id` header of its deliveries.")]
    type: str
    createdAt: dt.datetime
    organizationId: int
    data: Annotated[dict[str, Any], Describe("The object as a GET returns it, under the reader's scopes.")]
    changedFields: Annotated[NotRequired[list[str]], Describe("On `*.updated` events only.")]


class EventPage(TypedDict):
    data: list[Envelope]
    nextCursor: Annotated[str | None, Describe("The last event's id (pass it as `after`); null on an empty page.")]
    hasMore: bool


class ReplayQueued(TypedDict):
    queued: Annotated[int, Describe("The number of deliveries queued.")]


WEBHOOK = WebhookResource()
DELIVERY = DeliveryResource()
