import hashlib
import json
import logging
from datetime import timedelta

from celery import shared_task
from django.db import InterfaceError, OperationalError, transaction
from django.utils import timezone

from apps.contacts.models import Contact

from .channels import messaging_backend, send_email
from .choices import Channel
from .models import Notification, NotificationDelivery

logger = logging.getLogger("apps.notifications")


def delivery_id(payload: dict) -> str:
    """The notification's stable id: `payload["id"]` (set by `notify_contacts`); a payload queued without one is
    identified by its content (the retried payload is the same dict)."""
    if payload.get("id"):
        return str(payload["id"])
    return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()[:32]


def deliver_once(key: str, send) -> bool:
    """Run `send()` unless `key` was already delivered. The marker and the send share one transaction: a send that
    raises leaves no marker (the retry sends it), and a concurrent run of the same key waits on the unique row and
    then skips it."""
    with transaction.atomic():
        _, created = NotificationDelivery.objects.get_or_create(key=key)
        if not created:
            return False
        send()
    return True


# A channel that went away, or the database (restarting, failing over): the retry sends what is still missing.
RETRIED_FAILURES = (ConnectionError, InterfaceError, OperationalError)


@shared_task(autoretry_for=RETRIED_FAILURES, retry_backoff=True, max_retries=5)
def deliver_notification(payload: dict):
    """Send one notification to each contact on each channel. Missing contacts are skipped.

    Idempotent per (notification, contact, channel): a retry (after a ConnectionError on some contact, or a lost
    database connection) only sends what was not delivered yet.
    """
    notification_id = delivery_id(payload)
    contacts = Contact.objects.filter(organization_id=payload["organization_id"], id__in=payload["contact_ids"])
    channels = payload["channels"]
    attachments = [tuple(a) for a in payload.get("attachments") or ()]
    for contact in contacts.order_by("id"):
        key = f"{notification_id}:{contact.pk}:"
        if Channel.IN_APP in channels:
            deliver_once(
                key + Channel.IN_APP,
                lambda contact=contact: Notification.objects.create(
                    organization_id=payload["organization_id"],
                    contact=contact,
                    kind=payload["kind"],
                    title=payload["subject"][:200],
                    body=payload["body"],
                    data=payload.get("data") or {},
                ),
            )
        if Channel.EMAIL in channels and contact.email:
            deliver_once(
                key + Channel.EMAIL,
                lambda contact=contact: send_email(
                    to=contact.email, subject=payload["subject"], body=payload["body"], attachments=attachments
                ),
            )
        if Channel.MESSAGING in channels:
            deliver_once(
                key + Channel.MESSAGING,
                lambda contact=contact: messaging_backend().send(
                    phone=contact.phone, contact_id=contact.pk, text=payload["body"]
                ),
            )


DELIVERY_RECORD_RETENTION_DAYS = 30


@shared_task
def purge_delivery_records(days: int = DELIVERY_RECORD_RETENTION_DAYS) -> int:
    """Daily: drop delivery records older than any retry can be (a retried task is at most hours old)."""
    deleted, _ = NotificationDelivery.objects.filter(created_at__lt=timezone.now() - timedelta(days=days)).delete()
    return deleted
