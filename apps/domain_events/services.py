"""Recording domain events: the one place operations report what changed (a transactional outbox).

`emit` is called inside the operation's transaction, after its writes: the `DomainEvent` row is inserted in that
same transaction, so a rolled-back operation leaves no event and a committed one always keeps its event. Only the
fan-out to the handlers registered with `subscribe` (the webhooks) waits for the commit; a handler that fails is
logged and leaves the stored event in place.
"""

import logging
import os
import time

import orjson
from django.db import transaction

from apps.api.exceptions import lost_connection
from apps.api.renderers import dumps

from .models import DomainEvent

logger = logging.getLogger("apps.domain_events")

_subscribers = []
_batch_subscribers = []

_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def new_event_id() -> str:
    """`evt_` + a ULID: 48-bit millisecond time and 80 random bits, Crockford base32."""
    value = (int(time.time() * 1000) << 80) | int.from_bytes(os.urandom(10), "big")
    chars = []
    for _ in range(26):
        chars.append(_CROCKFORD[value & 31])
        value >>= 5
    return "evt_" + "".join(reversed(chars))


def subscribe(handler):
    """Register `handler(event)`, called once the transaction that stored the event has committed."""
    _subscribers.append(handler)
    return handler


def subscribe_batch(handler):
    """Register `handler(events)`, called once per committed `emit_many` with all of its events (the webhooks relay:
    one fan-out for a series of 520 occurrences, not 520)."""
    _batch_subscribers.append(handler)
    return handler


def _payload(data):
    return orjson.loads(dumps(data() if callable(data) else data))


def _notify_subscribers(events):
    # Each handler on its own: one failing (logged) does not keep the others from running.
    for handler in _batch_subscribers:
        _notify(handler, events)
    for event in events:
        for handler in _subscribers:
            _notify(handler, event)


def _notify(handler, argument) -> None:
    try:
        handler(argument)
    except Exception as exc:
        if not lost_connection(exc):
            logger.exception("Domain event handler %r failed", handler)
            return
        # The database went away after the commit: the cause is outside the process (no trace); the events are
        # stored, and the webhooks' beat sweep (`relay_missed`) relays them once it is back.
        logger.error("Domain event handler %r: database unreachable: %r", handler, exc)


def emit(organization, type: str, data, changed_fields=None):
    """Record `type` for `organization` in the current transaction.

    `data` may be a dict or a zero-argument callable building it; a callable runs now, so call `emit` after the
    operation's last write that the payload shows.
    """
    emit_many(organization, [(type, data, changed_fields)])


def changed_keys(before: dict, after: dict) -> list[str]:
    """The keys of a body that an update changed (`updatedAt` aside)."""
    return [key for key in after if key != "updatedAt" and after[key] != before[key]]


def emit_if_changed(organization, type: str, before: dict, after: dict, data=None) -> None:
    """`type` (an `.updated` event) naming the changed keys, with `data` (else `after`); nothing when the update
    changed no key."""
    changed = changed_keys(before, after)
    if changed:
        emit(organization, type, after if data is None else data, changed)


def emit_many(organization, events):
    """Record several events of `organization` in the current transaction (one insert, in the given order); the
    subscribers are called after commit.

    `events` is a list of `(type, data, changed_fields)` tuples; `data` may be a dict or a zero-argument callable
    (run now); `changed_fields` may be None. A rolled-back transaction records none of them.
    """
    events = list(events)
    if not events:
        return
    organization_id = getattr(organization, "pk", organization)
    rows = [
        DomainEvent(
            id=new_event_id(),
            organization_id=organization_id,
            type=type_,
            data=_payload(data),
            changed_fields=list(changed_fields) if changed_fields else None,
        )
        for type_, data, changed_fields in events
    ]
    if len(rows) == 1:
        rows[0].save(force_insert=True)
    else:
        DomainEvent.objects.bulk_create(rows)

    def notify_subscribers():
        _notify_subscribers(rows)

    # robust: the events are stored already, so a failing handler must not fail the committed operation
    transaction.on_commit(notify_subscribers, robust=True)
