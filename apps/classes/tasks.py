"""Celery tasks of classes: keeping open-ended series' rolling windows full."""

import logging

from celery import shared_task

from . import services

logger = logging.getLogger("apps.classes")


@shared_task(name="apps.classes.tasks.extend_open_series")
def extend_open_series(days: int | None = None) -> dict:
    """Extend every active open-ended series to `now + SERIES_WINDOW_DAYS`. Idempotent; safe to run concurrently."""
    results = services.extend_open_series(days=days)
    created = sum(r.created for r in results)
    logger.info("extended %s open-ended series, %s occurrences created", len(results), created)
    return {"series": len(results), "created": created, "skippedLocked": sum(r.skipped_locked for r in results)}
