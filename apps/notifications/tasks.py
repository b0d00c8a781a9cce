import logging

from celery import shared_task

from apps.contacts.models import Contact

from .channels import messaging_backend, send_email
from .models import Notification

logger = logging.getLogger("apps.notifications")


@shared_task(autoretry_for=(ConnectionError,), retry_backoff=True, max_retries=5)
def deliver_notification(payload: dict):
    """Send one notification to each contact on each channel. Missing contacts are skipped."""
    contacts = Contact.objects.filter(organization_id=payload["organization_id"], id__in=payload["contact_ids"])
    channels = payload["channels"]
    attachments = [tuple(a) for a in payload.get("attachments") or ()]
    for contact in contacts:
        if "in_app" in channels:
            Notification.objects.create(
                organization_id=payload["organization_id"],
                contact=contact,
                kind=payload["kind"],
                title=payload["subject"][:200],
                body=payload["body"],
                data=payload.get("data") or {},
            )
        if "email" in channels and contact.email:
            send_email(to=contact.email, subject=payload["subject"], body=payload["body"], attachments=attachments)
        if "messaging" in channels:
            messaging_backend().send(phone=contact.phone, contact_id=contact.pk, text=payload["body"])
