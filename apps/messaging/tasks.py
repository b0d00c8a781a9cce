from celery import shared_task

from . import delivery


@shared_task
def deliver_message(message_id: int):
    """Send a message that is `sending` to each of its contacts and record the counts (see `delivery`)."""
    delivery.deliver_message(message_id)
