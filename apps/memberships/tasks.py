"""Celery tasks of memberships: the daily lifecycle (expiry, scheduled resumes and cancellations, renewals)."""

import logging

from celery import shared_task

from . import services

logger = logging.getLogger("apps.memberships")


@shared_task(name="apps.memberships.tasks.run_membership_lifecycle")
def run_membership_lifecycle() -> dict:
    """Expire, resume, cancel and renew what is due. Idempotent; safe to run concurrently."""
    counts = services.run_lifecycle()
    logger.info("membership lifecycle: %s", counts or "nothing due")
    return counts
