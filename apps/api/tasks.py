from celery import shared_task

from . import idempotency


@shared_task
def purge_idempotency_records():
    """Daily: drop Idempotency-Key records older than 24 h."""
    return idempotency.purge_expired()
