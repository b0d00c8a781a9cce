"""The relay from the outbox (`apps.domain_events`) to webhook deliveries.

After a write commits, its events are relayed at once (a batch subscriber of the outbox): each gets the next
number of its organization's feed sequence and one pending delivery per active subscription that receives its
type. Numbering happens under the organization's `FeedCounter` row lock and commits with it, so the sequence
follows commit order: a feed reader that saw number n never later finds an event numbered below n. If the process
dies between the write's commit and the relay, the beat sweep relays the event a few seconds later
(`relay_missed`), so no committed event is ever skipped.
"""

import datetime as dt
import logging
from collections import defaultdict

from celery import shared_task
from django.db import transaction
from django.utils import timezone

from apps.domain_events.models import DomainEvent
from apps.domain_events.services import subscribe_batch
from apps.kernel.queueing import queue_after_commit

from . import tasks
from .catalogue import receivable
from .delivery import REQUEUE_AFTER
from .models import FeedCounter, WebhookDelivery, WebhookSubscription

logger = logging.getLogger("apps.webhooks")
STRAGGLER_AGE = dt.timedelta(seconds=10)


def connect() -> None:
    subscribe_batch(relay_committed)


def relay_committed(events) -> None:
    by_organization = defaultdict(list)
    for event in events:
        by_organization[event.organization_id].append(event.pk)
    for organization_id, ids in by_organization.items():
        relay(organization_id, ids)


def relay(organization_id: int, event_ids: list[str]) -> list[int]:
    """Number and fan out these events of one organization (those not relayed yet); returns the deliveries."""
    now = timezone.now()
    with transaction.atomic():
        counter = FeedCounter.objects.select_for_update().filter(organization_id=organization_id).first()
        if counter is None:
            FeedCounter.objects.bulk_create([FeedCounter(organization_id=organization_id)], ignore_conflicts=True)
            counter = FeedCounter.objects.select_for_update().get(organization_id=organization_id)
        events = list(
            DomainEvent.objects.select_for_update(skip_locked=True)
            .filter(pk__in=event_ids, sequence__isnull=True)
            .order_by("created_at", "id")
            .only("id", "type", "created_at", "organization_id")
        )
        if not events:
            return []
        for number, event in enumerate(events, start=counter.last_sequence + 1):
            event.sequence = number
        DomainEvent.objects.bulk_update(events, ["sequence"])
        counter.last_sequence += len(events)
        counter.save(update_fields=["last_sequence"])
        deliveries = fan_out(organization_id, events, now)
        by_subscription = defaultdict(list)
        for delivery in deliveries:
            by_subscription[delivery.subscription_id].append(delivery.pk)
        if deliveries:
            for ids in by_subscription.values():
                queue_after_commit(tasks.enqueue, ids)
    return [d.pk for d in deliveries]


def fan_out(organization_id: int, events, now) -> list[WebhookDelivery]:
    subscriptions = [
        (s, receivable(s.events, frozenset(s.scopes)))
        for s in WebhookSubscription.objects.filter(organization_id=organization_id, is_active=True).only(
            "id", "events", "scopes", "created_at"
        )
    ]
    rows = [
        WebhookDelivery(
            organization_id=organization_id,
            subscription_id=subscription.pk,
            event_id=event.pk,
            event_type=event.type,
            next_attempt_at=now,
            sweep_after=now + REQUEUE_AFTER,
        )
        for event in events
        for subscription, types in subscriptions
        if event.type in types and subscription.created_at <= event.created_at
    ]
    return WebhookDelivery.objects.bulk_create(rows) if rows else []


@shared_task(ignore_result=True)
def relay_missed(now=None, limit: int = 1000) -> int:
    """Relay committed events the immediate relay missed (its process died after the commit)."""
    now = now or timezone.now()
    pending = defaultdict(list)
    for organization_id, event_id in DomainEvent.objects.filter(
        sequence__isnull=True, created_at__lt=now - STRAGGLER_AGE
    ).values_list("organization_id", "id")[:limit]:
        pending[organization_id].append(event_id)
    for organization_id, ids in pending.items():
        relay(organization_id, ids)
    return sum(len(ids) for ids in pending.values())
