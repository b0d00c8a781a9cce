"""A short-lived cache of offer searches that never serves an outdated availability.

Identical searches (same body, same resolved point, same minute) are answered from the shared cache. The key also
carries an availability version, a counter in the cache that moves (at the write and again after its commit) whenever
anything an offer depends on changes: bookings, area blocks, classes, courts, clubs, pricing rules and
organizations (their `post_save`/`post_delete`), and every recorded `availability.changed` event (which also covers
bulk moves that send no model signal). A moved version makes every cached search a miss. Entries live at most
`MARKETPLACE_OFFERS_CACHE_SECONDS` (0 turns the cache off), so anything written around the signals (raw SQL, a
bulk update without an event) shows within that time. If the cache is unreachable, searches are computed. The gym
pages and calendar feeds (`pages/views.py`) are cached on the same version (`cached`), which also moves when a
class's instructors change (`m2m_changed`).
"""

import hashlib
import logging
import time

import orjson
from django.apps import apps
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import m2m_changed, post_delete, post_save

from apps.domain_events.services import subscribe

logger = logging.getLogger("apps.marketplace")
VERSION_KEY = "marketplace:availability-version"
# What an offer is computed from: a write to any of these moves the version.
SOURCES = (
    "bookings.Booking",
    "occupancy.AreaBlock",
    "classes.ClassOccurrence",
    "clubs.Area",
    "clubs.Club",
    "pricing.PricingRule",
    "organizations.Organization",
)


def current_version() -> int | None:
    """The availability version, None when the cache cannot be read (then nothing is cached)."""
    try:
        return int(cache.get(VERSION_KEY) or 0)
    except Exception as exc:  # noqa: BLE001 - a cache outage only costs the caching
        logger.warning("Offer cache unavailable: %r", exc)
        return None


def bump() -> None:
    try:
        cache.add(VERSION_KEY, 0, timeout=None)
        cache.incr(VERSION_KEY)
    except Exception as exc:  # noqa: BLE001
        logger.warning("Could not move the offers' availability version: %r", exc)


def bump_now_and_after_commit(*args, **kwargs) -> None:
    """Move the version at once (searches stop reusing older results) and again after the commit (a search that
    ran in between, still seeing the old rows, is not reused either)."""
    bump()
    transaction.on_commit(bump)


def _on_event(event) -> None:
    if event.type == "availability.changed":
        bump()


def connect() -> None:
    """Connect the invalidation (called once, from the app's `ready()`)."""
    for source in SOURCES:
        uid = f"marketplace.offers.{source}"
        post_save.connect(bump_now_and_after_commit, sender=source, dispatch_uid=f"{uid}.save")
        post_delete.connect(bump_now_and_after_commit, sender=source, dispatch_uid=f"{uid}.delete")
    # Who teaches a class (the instructors' feeds show it).
    teaching = apps.get_model("classes", "ClassOccurrence").instructors.through
    m2m_changed.connect(bump_now_and_after_commit, sender=teaching, dispatch_uid="marketplace.offers.teaching")
    subscribe(_on_event)


def cached(kind: str, key_data: dict, compute, seconds: int):
    """`compute()` for these inputs, or its result stored for the same `kind`, inputs, minute and availability
    version (at most `seconds`; 0 computes every time)."""
    version = current_version() if seconds else None
    if version is None:
        return compute()
    digest = hashlib.sha256(orjson.dumps(key_data, option=orjson.OPT_SORT_KEYS, default=str)).hexdigest()[:32]
    key = f"marketplace:{kind}:{version}:{int(time.time() // 60)}:{digest}"
    try:
        hit = cache.get(key)
    except Exception:  # noqa: BLE001
        hit = None
    if hit is not None:
        return hit
    result = compute()
    try:
        cache.set(key, result, seconds)
    except Exception as exc:  # noqa: BLE001
        logger.warning("Could not store a marketplace %s: %r", kind, exc)
    return result
