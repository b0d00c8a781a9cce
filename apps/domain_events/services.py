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


def emit(organization, type: str, data, changed_fields=None):
    """Record `type` for `organization` after the current transaction commits.

    `data` may be a dict or a zero-argument callable building it; a callable runs after commit, so it sees the
    committed state.
    """

    def record():
        payload = orjson.loads(dumps(data() if callable(data) else data))
        event = DomainEvent.objects.create(
            id=new_event_id(),
            organization_id=getattr(organization, "pk", organization),
            type=type,
            data=payload,
            changed_fields=list(changed_fields) if changed_fields else None,
        )
        for handler in _subscribers:
            handler(event)

    transaction.on_commit(record)
