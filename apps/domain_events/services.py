"""Recording domain events: the one place operations report what changed.

`emit` is called inside the operation's transaction; the row is written only once it commits, so a rolled-back
operation leaves no event. Handlers registered with `subscribe` (the webhooks fan-out) run after the write.
"""

import os
import time

import orjson
from django.db import transaction

from apps.api.renderers import dumps

from .models import DomainEvent

_subscribers = []

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
    """Register `handler(event)`, called after each event is stored."""
    _subscribers.append(handler)
    return handler


def _payload(data):
    return orjson.loads(dumps(data() if callable(data) else data))


def _notify_subscribers(events):
    for event in events:
        for handler in _subscribers:
            handler(event)


def emit(organization, type: str, data, changed_fields=None):
    """Record `type` for `organization` after the current transaction commits.

    `data` may be a dict or a zero-argument callable building it; a callable runs after commit, so it sees the
    committed state.
    """
    emit_many(organization, [(type, data, changed_fields)])


def emit_many(organization, events):
    """Record several events of `organization` after the current transaction commits: one bulk insert, then the
    subscribers, in the given order.

    `events` is a list of `(type, data, changed_fields)` tuples; `data` may be a dict or a zero-argument callable
    (run after commit); `changed_fields` may be None. A rolled-back transaction records none of them.
    """
    events = list(events)
    if not events:
        return
    organization_id = getattr(organization, "pk", organization)

    def record():
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
        _notify_subscribers(rows)

    transaction.on_commit(record)
