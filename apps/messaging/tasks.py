from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from . import delivery
from .choices import MessageStatus
from .models import Message

# A send still `sending` this long after it started lost its worker (a crash, a restart): it is run again, which
# sends only what was not delivered yet.
STALLED_AFTER = timedelta(minutes=10)


@shared_task
def deliver_message(message_id: int):
    """Send a message that is `sending` to each of its contacts and record the counts (see `delivery`)."""
    delivery.deliver_message(message_id)


@shared_task
def resume_stalled_sends() -> int:
    """Periodic: run again every send that stalled; returns how many were resumed."""
    stalled = Message.objects.filter(status=MessageStatus.SENDING, updated_at__lt=timezone.now() - STALLED_AFTER)
    ids = list(stalled.values_list("id", flat=True))
    for message_id in ids:
        delivery.deliver_message(message_id)
    return len(ids)
