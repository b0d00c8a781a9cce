"""Celery tasks of webhooks, all on their own queue (`WEBHOOK_QUEUE`, see CELERY_TASK_ROUTES), so a backlog of
deliveries never holds up the other background work, and a dedicated worker can serve them.

`deliver` is acknowledged late (`acks_late`, `reject_on_worker_lost`) and claims its delivery with a lease: a
worker killed mid-attempt leaves the delivery to the next worker (at least once, the same `webhook-id`).
"""

import datetime as dt
import logging
import time

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.db.models import Q
from django.utils import timezone

from apps.domain_events.models import DomainEvent
from config import celery_app

from . import delivery as sending
from .choices import DeliveryStatus
from .models import WebhookDelivery, WebhookSubscription

logger = logging.getLogger("apps.webhooks")
SWEEP_BATCH = 500
TRIM_BATCH = 1000
REPLAY_SLICE_SECONDS = 50


BATCH = 25
BATCH_SECONDS = 2.0


def enqueue(delivery_ids) -> None:
    """Queue deliveries: one task each, or `deliver_many` tasks of up to BATCH for deliveries of ONE subscription
    (a relayed batch), which spares the per-task overhead without letting one receiver hold another's."""
    delivery_ids = list(delivery_ids)
    if len(delivery_ids) == 1:
        deliver.delay(delivery_ids[0])
        return
    for start in range(0, len(delivery_ids), BATCH):
        deliver_many.delay(delivery_ids[start : start + BATCH])


def _eager() -> bool:
    return bool(celery_app.conf.task_always_eager)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def deliver(delivery_id: int) -> str:
    outcome = sending.process(delivery_id)
    # Short waits ride on a countdown; longer ones (and every wait when tasks run inline) are due rows the beat
    # sweep queues.
    if outcome.state == "retry" and outcome.retry_in is not None and not _eager():
        deliver.apply_async((delivery_id,), countdown=outcome.retry_in)
    return outcome.state


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def deliver_many(delivery_ids: list[int]) -> int:
    """`deliver` for a few deliveries of one subscription, claimed a concurrency limit's worth at a time (one
    claim per group); what is left after BATCH_SECONDS goes on in a new task, so a worker is never held long."""
    started = time.monotonic()
    step = max(1, settings.WEBHOOK_MAX_CONCURRENCY_PER_SUBSCRIPTION)
    for position in range(0, len(delivery_ids), step):
        if position and time.monotonic() - started > BATCH_SECONDS and not _eager():
            deliver_many.delay(delivery_ids[position:])
            return position
        for delivery_id, outcome in sending.process_many(delivery_ids[position : position + step]).items():
            if outcome.state == "retry" and outcome.retry_in is not None and not _eager():
                deliver.apply_async((delivery_id,), countdown=outcome.retry_in)
    return len(delivery_ids)


def _replay_lock(subscription_id: int) -> str:
    return f"webhooks:replay:{subscription_id}"


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def run_replay(subscription_id: int) -> int:
    """Send a replay's deliveries one after another in event order (the first attempt of each; a failed one goes
    on with its own retries). One runner per subscription (a cache lock); a long replay continues in a new task
    after REPLAY_SLICE_SECONDS so a worker is never held for long."""
    lock = _replay_lock(subscription_id)
    if not cache.add(lock, 1, timeout=settings.WEBHOOK_LEASE_SECONDS):
        return 0
    sent = 0
    started = time.monotonic()
    try:
        while True:
            next_id = (
                WebhookDelivery.objects.filter(
                    subscription_id=subscription_id, replay=True, attempts=0, status=DeliveryStatus.PENDING
                )
                .order_by("id")
                .values_list("id", flat=True)
                .first()
            )
            if next_id is None:
                return sent
            if time.monotonic() - started > REPLAY_SLICE_SECONDS:
                break
            cache.touch(lock, settings.WEBHOOK_LEASE_SECONDS)
            outcome = sending.process(next_id)
            if outcome.state in ("deferred", "skipped"):
                break
            sent += 1
            if outcome.state == "retry" and outcome.retry_in is not None and not _eager():
                deliver.apply_async((next_id,), countdown=outcome.retry_in)
    finally:
        cache.delete(lock)
    if not _eager():
        run_replay.apply_async((subscription_id,), countdown=1)
    return sent


@shared_task(ignore_result=True)
def sweep(now: dt.datetime | None = None) -> int:
    """Beat, every few seconds: queue due retries, deliveries whose task was lost or whose worker died (lease
    expired), and stalled replays. (`relay.relay_missed` relays events the immediate relay missed.)"""
    now = now or timezone.now()
    due = (
        WebhookDelivery.objects.filter(status=DeliveryStatus.PENDING, sweep_after__lte=now)
        .filter(Q(lease_until__isnull=True) | Q(lease_until__lt=now))
        .order_by("sweep_after")
        .values_list("id", "subscription_id", "replay", "attempts")[:SWEEP_BATCH]
    )
    per_subscription: dict[int, int] = {}
    single, replays, bumped = [], set(), []
    for delivery_id, subscription_id, replay, attempts in due:
        if replay and attempts == 0:
            replays.add(subscription_id)
            bumped.append(delivery_id)
            continue
        if per_subscription.get(subscription_id, 0) >= settings.WEBHOOK_MAX_CONCURRENCY_PER_SUBSCRIPTION:
            continue  # left for the next sweep: one backlog never floods the queue
        per_subscription[subscription_id] = per_subscription.get(subscription_id, 0) + 1
        single.append(delivery_id)
        bumped.append(delivery_id)
    if bumped:
        WebhookDelivery.objects.filter(pk__in=bumped).update(sweep_after=now + sending.REQUEUE_AFTER)
    enqueue(single)
    for subscription_id in sorted(replays):
        run_replay.delay(subscription_id)
    return len(single) + len(replays)


@shared_task(ignore_result=True)
def check_failing_subscriptions(now: dt.datetime | None = None) -> None:
    """Beat: warn (48 h) and disable (72 h) subscriptions whose deliveries keep failing, also when no new attempt
    happens to run at those moments."""
    now = now or timezone.now()
    ids = WebhookSubscription.objects.filter(is_active=True, failing_since__isnull=False).values_list("id", flat=True)
    for subscription_id in ids:
        sending.check_failing(subscription_id, now)


def _trim(queryset) -> int:
    deleted = 0
    while True:
        ids = list(queryset.values_list("pk", flat=True)[:TRIM_BATCH])
        if not ids:
            return deleted
        deleted += queryset.model.objects.filter(pk__in=ids).delete()[1].get(queryset.model._meta.label, 0)


@shared_task(ignore_result=True)
def trim(now: dt.datetime | None = None) -> dict:
    """Beat, hourly: the delivery log and the outbox keep 30 days (`WEBHOOK_RETENTION_DAYS`), trimmed in batches
    so no statement runs long."""
    now = now or timezone.now()
    cutoff = now - dt.timedelta(days=settings.WEBHOOK_RETENTION_DAYS)
    deliveries = _trim(WebhookDelivery.objects.filter(created_at__lt=cutoff))
    # A (younger) delivery of a trimmed event goes with it: the foreign key cascades.
    events = _trim(DomainEvent.objects.filter(created_at__lt=cutoff))
    return {"deliveries": deliveries, "events": events}
