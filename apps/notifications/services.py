"""The notification layer: one call tells contacts (or instructors) through e-mail, in-app and messaging app.

Sending happens in a Celery task queued after the current transaction commits; tasks take ids and reload.
"""

import uuid

from apps.kernel.queueing import queue_after_commit

from .choices import Channel
from .tasks import deliver_notification

ALL_CHANNELS = tuple(Channel.values)


def notify_contacts(
    organization, contact_ids, *, kind, subject, body, data=None, channels=ALL_CHANNELS, attachments=()
):
    """Queue a notification to each contact, after commit. `attachments`: (filename, text, mimetype)."""
    contact_ids = sorted({int(c) for c in contact_ids if c})
    if not contact_ids:
        return
    payload = {
        "id": uuid.uuid4().hex,  # stable across retries: deliveries are recorded per (id, contact, channel)
        "organization_id": getattr(organization, "pk", organization),
        "contact_ids": contact_ids,
        "kind": kind,
        "subject": subject,
        "body": body,
        "data": data or {},
        "channels": list(channels),
        "attachments": [list(a) for a in attachments],
    }
    queue_after_commit(deliver_notification.delay, payload)
