"""Webhook rows for tests, made directly (the API creates them with address checks and scope checks)."""

from django.utils import timezone

from apps.api.scopes import ALL_SCOPES
from apps.domain_events.models import DomainEvent
from apps.domain_events.services import new_event_id
from apps.webhooks import signing
from apps.webhooks.models import FeedCounter, WebhookDelivery, WebhookSubscription

PUBLIC_URL = "https://93.184.215.14/hooks"  # a public address literal: no DNS needed, never contacted in tests


def make_subscription(organization, url=PUBLIC_URL, events=("*",), scopes=ALL_SCOPES, **fields):
    return WebhookSubscription.objects.create(
        organization=organization,
        url=url,
        events=list(events),
        scopes=list(scopes),
        secret=fields.pop("secret", None) or signing.new_secret(),
        **fields,
    )


def make_event(organization, type_="contact.created", data=None, relayed=True, **fields):
    """A recorded (and, unless told, relayed: numbered in the feed) event."""
    sequence = None
    if relayed:
        counter, _ = FeedCounter.objects.get_or_create(organization=organization)
        counter.last_sequence += 1
        counter.save()
        sequence = counter.last_sequence
    return DomainEvent.objects.create(
        id=new_event_id(),
        organization=organization,
        type=type_,
        data=data if data is not None else {"id": 1},
        sequence=sequence,
        **fields,
    )


def make_delivery(subscription, event=None, **fields):
    event = event or make_event(subscription.organization)
    now = timezone.now()
    return WebhookDelivery.objects.create(
        organization=subscription.organization,
        subscription=subscription,
        event=event,
        event_type=event.type,
        next_attempt_at=fields.pop("next_attempt_at", now),
        sweep_after=fields.pop("sweep_after", now),
        **fields,
    )
