"""Sending one delivery: claim it with a lease, sign and POST the envelope, record the outcome, schedule the retry.

At least once: a delivery is claimed by setting `lease_until` (under the subscription's row lock, which also
enforces the per-subscription concurrency limit); a worker killed mid-attempt leaves the lease to expire, and the
beat sweep queues the delivery again. The attempt itself holds no transaction or lock.
"""

import datetime as dt
import logging
import random
import time
from dataclasses import dataclass

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from apps.api.renderers import dumps
from apps.notifications.channels import send_email
from apps.organizations.choices import StaffRole
from apps.organizations.models import StaffMembership

from . import client, metrics, signing
from .choices import DeliveryStatus, DisabledReason
from .envelope import envelope
from .models import WebhookDelivery, WebhookSubscription

logger = logging.getLogger("apps.webhooks")

MAX_ATTEMPTS = 8
# Retry n (1..7) waits 30 s x 4^(n-1): 30 s, 2 min, 8 min, 32 min, ~2.1 h, ~8.5 h, ~34 h (~45 h in all).
RETRY_DELAYS = tuple(30 * 4**n for n in range(MAX_ATTEMPTS - 1))
JITTER = 0.10
RETRYABLE_STATUSES = {408, 429}
FAILING_DISABLE_AFTER = dt.timedelta(hours=72)
FAILING_WARN_AFTER = FAILING_DISABLE_AFTER - dt.timedelta(hours=24)
ROTATION_OVERLAP = dt.timedelta(hours=24)
# A queued task that never ran (a lost message) is queued again by the sweep this long after it was due.
REQUEUE_AFTER = dt.timedelta(seconds=120)
DEFER = dt.timedelta(seconds=5)


@dataclass
class Outcome:
    state: str  # sent, retry, failed, skipped (not claimable), deferred (subscription at its concurrency limit)
    retry_in: float | None = None


def retry_delay(attempts: int, rng=random.random) -> float:
    """Seconds before the next attempt after `attempts` failed ones, with +-10 % jitter."""
    base = RETRY_DELAYS[attempts - 1]
    return base * (1 - JITTER + 2 * JITTER * rng())


def live_secrets(subscription: WebhookSubscription, now: dt.datetime) -> list[str]:
    """The secrets deliveries are signed with, newest first: the previous one only within 24 h of a rotation."""
    secrets = [subscription.secret]
    expires = subscription.previous_secret_expires_at
    if subscription.previous_secret and expires is not None and now < expires:
        secrets.append(subscription.previous_secret)
    return secrets


def process(delivery_id: int, now: dt.datetime | None = None) -> Outcome:
    now = now or timezone.now()
    claimed = claim(delivery_id, now)
    if isinstance(claimed, Outcome):
        return claimed
    answer = send(claimed, now)
    return record(claimed, answer, now + dt.timedelta(milliseconds=answer.duration_ms))


def relaxed_commit() -> None:
    """This transaction's commit need not wait for the disk (PostgreSQL `synchronous_commit = off`): delivery
    bookkeeping lost in a database crash only means the delivery is sent again (at least once, same webhook-id),
    and it saves a disk flush per claim and per outcome. (Not for the relay: a feed reader may already have seen
    the numbers it commits.)"""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit TO OFF")


def claim(delivery_id: int, now: dt.datetime):
    """The delivery, leased to this worker; or an Outcome saying why not."""
    claimed, outcomes = claim_many([delivery_id], now)
    return claimed[0] if claimed else outcomes[delivery_id]


def claim_many(delivery_ids, now: dt.datetime) -> tuple[list[WebhookDelivery], dict[int, Outcome]]:
    """Lease what may be sent now of these deliveries (in id order), in one transaction: the rows and their
    subscriptions are locked in one query, so each subscription's concurrency count is exact. The others get an
    Outcome: skipped (not pending, or leased elsewhere), failed (subscription disabled), deferred (at the limit)."""
    outcomes: dict[int, Outcome] = {}
    claimed: list[WebhookDelivery] = []
    with transaction.atomic():
        relaxed_commit()
        rows = list(
            WebhookDelivery.objects.select_for_update(of=("self", "subscription"))
            .select_related("event", "subscription")
            .filter(pk__in=list(delivery_ids), status=DeliveryStatus.PENDING)
            .filter(Q(lease_until__isnull=True) | Q(lease_until__lt=now))
            .order_by("id")
        )
        found = {row.pk for row in rows}
        outcomes.update({pk: Outcome("skipped") for pk in delivery_ids if pk not in found})
        groups: dict[int, list[WebhookDelivery]] = {}
        for row in rows:
            groups.setdefault(row.subscription_id, []).append(row)
        for subscription_id, group in groups.items():
            ids = [row.pk for row in group]
            if not group[0].subscription.is_active:
                WebhookDelivery.objects.filter(pk__in=ids).update(
                    status=DeliveryStatus.FAILED,
                    last_error="Not sent: the subscription is disabled.",
                    next_attempt_at=None,
                    sweep_after=None,
                )
                outcomes.update({pk: Outcome("failed") for pk in ids})
                continue
            busy = WebhookDelivery.objects.filter(
                subscription_id=subscription_id, status=DeliveryStatus.PENDING, lease_until__gt=now
            ).count()
            room = max(0, settings.WEBHOOK_MAX_CONCURRENCY_PER_SUBSCRIPTION - busy)
            take, wait = group[:room], group[room:]
            if wait:
                WebhookDelivery.objects.filter(pk__in=[row.pk for row in wait]).update(sweep_after=now + DEFER)
                outcomes.update({row.pk: Outcome("deferred") for row in wait})
            if take:
                lease = now + dt.timedelta(seconds=settings.WEBHOOK_LEASE_SECONDS)
                WebhookDelivery.objects.filter(pk__in=[row.pk for row in take]).update(lease_until=lease)
                for row in take:
                    row.lease_until = lease
                claimed += take
    return claimed, outcomes


def process_many(delivery_ids) -> dict[int, Outcome]:
    """`process` for a few deliveries with one claim: they are sent one after another, each outcome recorded as
    soon as it is known."""
    claimed, outcomes = claim_many(delivery_ids, timezone.now())
    for delivery in claimed:
        now = timezone.now()
        answer = send(delivery, now)
        outcomes[delivery.pk] = record(delivery, answer, now + dt.timedelta(milliseconds=answer.duration_ms))
    return outcomes


def request_parts(delivery: WebhookDelivery, now: dt.datetime) -> tuple[bytes, dict[str, str]]:
    """The signed body and headers of an attempt (Standard Webhooks, plus the platform's own headers)."""
    subscription = delivery.subscription
    event = delivery.event
    body = dumps(envelope(event, frozenset(subscription.scopes)))
    timestamp = int(time.time())
    headers = {
        "Content-Type": "application/json",
        "webhook-id": event.id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": signing.signature_header(live_secrets(subscription, now), event.id, timestamp, body),
        "X-Platform-Event-Type": event.type,
        "X-Platform-Delivery-Id": str(delivery.pk),
    }
    return body, headers


def send(delivery: WebhookDelivery, now: dt.datetime) -> client.Answer:
    body, headers = request_parts(delivery, now)
    return client.post(delivery.subscription.url, body, headers)


def _retryable(answer: client.Answer) -> bool:
    if answer.status is None:
        return not answer.refused
    return answer.status in RETRYABLE_STATUSES or answer.status >= 500


def record(delivery: WebhookDelivery, answer: client.Answer, now: dt.datetime) -> Outcome:
    subscription = delivery.subscription
    delivery.attempts += 1
    delivery.last_attempt_at = now
    delivery.response_status = answer.status
    delivery.response_body = answer.body
    delivery.duration_ms = answer.duration_ms
    delivery.lease_until = None
    delivery.last_error = _error_text(answer)[:300]
    outcome: Outcome
    if answer.status is not None and 200 <= answer.status < 300:
        delivery.status = DeliveryStatus.SUCCEEDED
        delivery.next_attempt_at = delivery.sweep_after = None
        outcome = Outcome("sent")
    elif _retryable(answer) and delivery.attempts < MAX_ATTEMPTS:
        if answer.status == 429 and answer.retry_after is not None:
            delay = min(max(answer.retry_after, 1.0), RETRY_DELAYS[-1])
        else:
            delay = retry_delay(delivery.attempts)
        delivery.next_attempt_at = now + dt.timedelta(seconds=delay)
        short = delay <= settings.WEBHOOK_COUNTDOWN_MAX_SECONDS
        delivery.sweep_after = delivery.next_attempt_at + (REQUEUE_AFTER if short else dt.timedelta(0))
        outcome = Outcome("retry", retry_in=delay if short else None)
    else:
        delivery.status = DeliveryStatus.FAILED
        delivery.next_attempt_at = delivery.sweep_after = None
        outcome = Outcome("failed")
    fields = (
        "attempts",
        "last_attempt_at",
        "response_status",
        "response_body",
        "duration_ms",
        "lease_until",
        "last_error",
        "status",
        "next_attempt_at",
        "sweep_after",
    )
    with transaction.atomic():
        relaxed_commit()
        # An update, not save(): a subscription deleted during the attempt took the row with it; nothing to record.
        WebhookDelivery.objects.filter(pk=delivery.pk).update(**{name: getattr(delivery, name) for name in fields})
    metrics.record_attempt(outcome.state, (now - delivery.created_at).total_seconds())
    logger.info(
        "webhook delivery %s (%s to subscription %s) attempt %s: %s %s",
        delivery.pk,
        delivery.event_type,
        subscription.pk,
        delivery.attempts,
        answer.status,
        delivery.last_error or outcome.state,
    )
    if outcome.state == "sent":
        if subscription.failing_since is not None:
            WebhookSubscription.objects.filter(pk=subscription.pk).update(failing_since=None, failure_warned_at=None)
    else:
        if answer.status == 410:
            disable(subscription, DisabledReason.GONE, now)
        else:
            WebhookSubscription.objects.filter(pk=subscription.pk, failing_since__isnull=True).update(failing_since=now)
            check_failing(subscription.pk, now)
    return outcome


def _error_text(answer: client.Answer) -> str:
    if answer.error:
        return answer.error
    if answer.status is not None and 300 <= answer.status < 400:
        return f"Redirect not followed (Location: {answer.location or 'none'})."
    return ""


# --- disabling ---------------------------------------------------------------------------------------------------


def check_failing(subscription_id: int, now: dt.datetime) -> None:
    """Warn the organization's admins 24 h before a failing subscription is disabled; disable it at 72 h."""
    subscription = WebhookSubscription.objects.filter(pk=subscription_id, is_active=True).first()
    if subscription is None or subscription.failing_since is None:
        return
    failing_for = now - subscription.failing_since
    if failing_for >= FAILING_DISABLE_AFTER:
        disable(subscription, DisabledReason.FAILING, now)
    elif failing_for >= FAILING_WARN_AFTER and subscription.failure_warned_at is None:
        warned = WebhookSubscription.objects.filter(pk=subscription.pk, failure_warned_at__isnull=True).update(
            failure_warned_at=now
        )
        if warned:
            deadline = subscription.failing_since + FAILING_DISABLE_AFTER
            _mail_admins(
                subscription,
                f"Webhook failing: {subscription.url} will be disabled",
                f"Every delivery to the webhook {subscription.url} (id {subscription.pk}) has failed since "
                f"{subscription.failing_since:%Y-%m-%d %H:%M} UTC. Unless a delivery succeeds, it will be disabled "
                f"at {deadline:%Y-%m-%d %H:%M} UTC.\n\nThe delivery log: GET /v1/platform/webhooks/"
                f"{subscription.pk}/deliveries",
            )


def disable(subscription: WebhookSubscription, reason: str, now: dt.datetime) -> bool:
    disabled = WebhookSubscription.objects.filter(pk=subscription.pk, is_active=True).update(
        is_active=False, disabled_reason=reason, updated_at=now
    )
    if not disabled:
        return False
    logger.warning("webhook subscription %s disabled (%s)", subscription.pk, reason)
    why = (
        "the receiver answered 410 Gone" if reason == DisabledReason.GONE else "every delivery has failed for 72 hours"
    )
    _mail_admins(
        subscription,
        f"Webhook disabled: {subscription.url}",
        f"The webhook {subscription.url} (id {subscription.pk}) was disabled because {why}. No further events "
        f'are sent to it. Re-enable it with PATCH /v1/platform/webhooks/{subscription.pk} {{"isActive": true}}, '
        "then catch up with POST /v1/platform/webhooks/{id}/replay or the event feed GET /v1/platform/webhook-events.",
    )
    return True


def organization_admin_emails(organization_id) -> list[str]:
    """E-mails of the organization's admins (staff who manage its settings)."""
    memberships = StaffMembership.objects.filter(organization_id=organization_id).filter(
        Q(role=StaffRole.ADMIN) | (Q(full_settings_management=True) & ~Q(role=StaffRole.MANAGER))
    )
    return sorted({e for e in memberships.values_list("user__email", flat=True) if e})


def _mail_admins(subscription: WebhookSubscription, subject: str, body: str) -> None:
    for address in organization_admin_emails(subscription.organization_id):
        try:
            send_email(to=address, subject=subject, body=body)
        except Exception:  # a mail outage must not undo the delivery bookkeeping
            logger.exception("Could not e-mail %s about webhook %s", address, subscription.pk)
