"""Primary + read replica: which database a query goes to (installed only when `DATABASE_REPLICA_URL` is set).

Reads go to the replica only where a view opts in for its request (`read_from_replica()`: Platform lists, the
reports, marketplace search) and only until the request writes. Everything else reads the primary: credentials
(revocation is live), single objects, every write method, Celery tasks, the admin, the shell.

The request's state lives in a context variable, reset when each request starts (`request_started`):

- a write method (POST, PATCH, PUT, DELETE) starts pinned to the primary, unless its view declares itself a pure
  read (`read_from_replica(read_only=True)`, the offer search) before anything was written;
- any write (`db_for_write`: saves, updates, deletes, `select_for_update`, `get_or_create`) pins the rest of the
  request to the primary, so a read after a write sees it;
- a read inside an open transaction on the primary reads the primary (test-case wrappers excepted).

Raw SQL on `django.db.connection` is always the primary's; a view that opts in reads through the ORM or
`connections[router.db_for_read(Model)]`.
"""

from contextvars import ContextVar
from dataclasses import dataclass

from django.core.signals import request_finished, request_started
from django.db import DEFAULT_DB_ALIAS, connections

REPLICA_DB_ALIAS = "replica"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


@dataclass
class _Scope:
    replica: bool = False  # the view allowed replica reads
    pinned: bool = False  # something (a write method, a write) pins the rest of the request to the primary
    wrote: bool = False  # a write went to the primary in this request


_scope: ContextVar[_Scope | None] = ContextVar("db_routing_scope", default=None)


def begin_request(method: str) -> None:
    _scope.set(_Scope(pinned=method.upper() not in SAFE_METHODS))


def end_request() -> None:
    _scope.set(None)


def read_from_replica(read_only: bool = False) -> None:
    """Let the current request's reads go to the replica (until it writes). `read_only` is a view's promise that
    its write method (e.g. a POST search) only reads."""
    scope = _scope.get()
    if scope is None:
        return
    scope.replica = True
    if read_only and not scope.wrote:
        scope.pinned = False


def _in_transaction() -> bool:
    """An atomic block of the code on the primary (a test case's wrapping blocks do not count)."""
    return any(not getattr(block, "_from_testcase", False) for block in connections[DEFAULT_DB_ALIAS].atomic_blocks)


def _on_request_started(sender, environ=None, **kwargs):
    begin_request((environ or {}).get("REQUEST_METHOD", "GET"))


def _on_request_finished(sender, **kwargs):
    end_request()


def connect_signals() -> None:
    request_started.connect(_on_request_started, dispatch_uid="db_routing.request_started")
    request_finished.connect(_on_request_finished, dispatch_uid="db_routing.request_finished")


class PrimaryReplicaRouter:
    """`DATABASE_ROUTERS` entry when a replica is configured (config/settings.py)."""

    def __init__(self):
        connect_signals()

    def db_for_read(self, model, **hints):
        scope = _scope.get()
        if scope is not None and scope.replica and not scope.pinned and not _in_transaction():
            return REPLICA_DB_ALIAS
        return DEFAULT_DB_ALIAS

    def db_for_write(self, model, **hints):
        scope = _scope.get()
        if scope is not None:
            scope.pinned = scope.wrote = True
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1, obj2, **hints):
        # The replica is a copy of the primary: rows read from either may be related.
        if {obj1._state.db, obj2._state.db} <= {DEFAULT_DB_ALIAS, REPLICA_DB_ALIAS}:
            return True
        return None

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return db == DEFAULT_DB_ALIAS  # the replica follows the primary's WAL, migrations included
