"""Webhook subscriptions, redelivery and replay: the business rules behind `/v1/platform/webhooks`."""

import datetime as dt

from django.db import transaction
from django.utils import timezone

from apps.api.exceptions import Conflict, InsufficientScope, ValidationFailed
from apps.api.scopes import ordered
from apps.domain_events.models import DomainEvent
from apps.kernel.queueing import queue_after_commit

from . import netguard, signing, tasks
from .catalogue import EVENT_TYPES, WILDCARD, receivable
from .choices import DeliveryStatus
from .delivery import REQUEUE_AFTER, ROTATION_OVERLAP
from .models import WebhookDelivery, WebhookSubscription

FEED_DAYS = 30


def check_url(url: str) -> None:
    try:
        netguard.check_subscription_url(url)
    except ValueError as exc:
        raise ValidationFailed({"url": [str(exc)]}) from None


def check_event_types(types: list[str], scopes) -> None:
    """Each named type needs its read scope on the calling credential (403 short body otherwise); `*` subscribes
    to every type the stored scopes allow."""
    if WILDCARD in types:
        return
    for name in types:
        scope = EVENT_TYPES[name].scope
        if scope not in scopes:
            raise InsufficientScope(scope)


@transaction.atomic
def create_subscription(organization, data: dict, scopes) -> tuple[WebhookSubscription, str]:
    check_url(data["url"])
    check_event_types(data["events"], scopes)
    secret = signing.new_secret()
    subscription = WebhookSubscription.objects.create(
        organization=organization,
        url=data["url"],
        events=data["events"],
        description=data.get("description") or "",
        is_active=data.get("is_active", True),
        scopes=ordered(scopes),
        secret=secret,
    )
    return subscription, secret


@transaction.atomic
def update_subscription(subscription: WebhookSubscription, data: dict, scopes) -> WebhookSubscription:
    subscription = WebhookSubscription.objects.select_for_update().get(pk=subscription.pk)
    if "url" in data:
        check_url(data["url"])
        subscription.url = data["url"]
    if "events" in data:
        check_event_types(data["events"], scopes)
        subscription.events = data["events"]
        # The credential that chose the types now governs what is sent and how payloads are rendered.
        subscription.scopes = ordered(scopes)
    if "description" in data:
        subscription.description = data["description"] or ""
    if "is_active" in data:
        if data["is_active"] and not subscription.is_active:
            subscription.disabled_reason = None
            subscription.failing_since = subscription.failure_warned_at = None
        subscription.is_active = data["is_active"]
    subscription.save()
    return subscription


@transaction.atomic
def delete_subscription(subscription: WebhookSubscription) -> None:
    """The subscription goes, and with it its delivery log: pending deliveries are never sent."""
    WebhookSubscription.objects.filter(pk=subscription.pk).delete()


@transaction.atomic
def rotate_secret(subscription: WebhookSubscription, now: dt.datetime | None = None) -> tuple[WebhookSubscription, str]:
    """A new secret; the current one keeps signing (second) for 24 hours. Rotating again within them drops the
    older one: at most two secrets are live."""
    now = now or timezone.now()
    subscription = WebhookSubscription.objects.select_for_update().get(pk=subscription.pk)
    secret = signing.new_secret()
    subscription.previous_secret = subscription.secret
    subscription.previous_secret_expires_at = now + ROTATION_OVERLAP
    subscription.secret = secret
    subscription.save(update_fields=["secret", "previous_secret", "previous_secret_expires_at", "updated_at"])
    return subscription, secret


@transaction.atomic
def redeliver(delivery: WebhookDelivery) -> WebhookDelivery:
    """The same event again to the same subscription: a new delivery (new attempts, the same `webhook-id`)."""
    subscription = WebhookSubscription.objects.select_for_update().get(pk=delivery.subscription_id)
    if not subscription.is_active:
        raise Conflict("The webhook is disabled; re-enable it (PATCH isActive: true) before redelivering.")
    now = timezone.now()
    copy = WebhookDelivery.objects.create(
        organization_id=delivery.organization_id,
        subscription=subscription,
        event_id=delivery.event_id,
        event_type=delivery.event_type,
        next_attempt_at=now,
        sweep_after=now + REQUEUE_AFTER,
    )
    queue_after_commit(tasks.enqueue, [copy.pk])
    return copy


def feed_horizon(now: dt.datetime | None = None) -> dt.datetime:
    return (now or timezone.now()) - dt.timedelta(days=FEED_DAYS)


@transaction.atomic
def replay(subscription: WebhookSubscription, since, until=None, types=None) -> int:
    """Queue, in feed order, a delivery of every event of the organization from `since` to `until` (inclusive)
    that the subscription receives (and, when given, whose type is in `types`). One replay at a time."""
    now = timezone.now()
    until = until or now
    errors = {}
    if since < feed_horizon(now):
        errors["since"] = [f"Must be within the last {FEED_DAYS} days."]
    if since > until:
        errors["until"] = ["Must not be before `since`."]
    if errors:
        raise ValidationFailed(errors)
    subscription = WebhookSubscription.objects.select_for_update().get(pk=subscription.pk)
    if not subscription.is_active:
        raise Conflict("The webhook is disabled; re-enable it (PATCH isActive: true) before replaying.")
    running = WebhookDelivery.objects.filter(
        subscription=subscription, replay=True, attempts=0, status=DeliveryStatus.PENDING
    ).exists()
    if running:
        raise Conflict("A replay of this webhook is still running; wait for it to finish.")
    wanted = receivable(subscription.events, frozenset(subscription.scopes))
    if types:
        wanted &= set(types)
    events = (
        DomainEvent.objects.filter(
            organization_id=subscription.organization_id,
            sequence__isnull=False,
            created_at__gte=since,
            created_at__lte=until,
            type__in=sorted(wanted),
        )
        .order_by("sequence")
        .values_list("id", "type")
    )
    rows = [
        WebhookDelivery(
            organization_id=subscription.organization_id,
            subscription=subscription,
            event_id=event_id,
            event_type=event_type,
            replay=True,
            next_attempt_at=now,
            sweep_after=now + REQUEUE_AFTER,
        )
        for event_id, event_type in events.iterator()
    ]
    WebhookDelivery.objects.bulk_create(rows, batch_size=1000)
    if rows:
        queue_after_commit(tasks.run_replay.delay, subscription.pk)
    return len(rows)
