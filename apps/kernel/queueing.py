"""Queue Celery work once the current transaction commits, without failing the write that committed."""

import logging

from django.db import transaction
from kombu.exceptions import OperationalError as BrokerUnreachable

logger = logging.getLogger("apps.kernel")


def queue_after_commit(send, *args) -> None:
    """`send(*args)` after the commit, where `send` queues Celery work (a task's `delay`, or a function calling
    it). An unreachable broker must not turn a committed write into a 500 (a client would retry a write that
    happened): the failure is logged as an ERROR and the work is left to what recovers it (the webhook sweep, the
    stalled-sends task; see docs/decisions/faults.md). Other errors (an eager task's own, in tests and `make run`)
    still propagate."""

    def run():
        try:
            send(*args)
        except BrokerUnreachable as exc:
            name = getattr(getattr(send, "__self__", None), "name", None) or send.__qualname__
            logger.error("Broker unreachable: %s not queued after the commit (%r)", name, exc)

    transaction.on_commit(run)
