"""Rendered list pages, reused until the data or the time they show changes; `ETag` and 304.

A Platform API list page is a function of the caller's organization rows, the credential (its scopes decide what
is shown), the path and query string, and for some resources the current time. `respond()` keeps the rendered bytes
in the shared cache under the credential and the full path, with the **data version** they were computed at and the
moment they stop being true (`Resource.fresh_until`: a class's `timeStatus` turns `past` when it ends). A request
serves them only while both still hold; everything before the handler (authentication and revocation, scopes, rate
limits) runs on every request as before.

The data version is a counter in the cache that moves after every transaction that wrote anything through Django's
database connections: an execute wrapper on each connection sees every INSERT, UPDATE, DELETE (or any statement that
is not a read), so `QuerySet.update()`, bulk inserts, raw SQL and the outbox's events count as much as `save()`.
Only a credential's note of its last use (`writes_no_page_shows()`) is left out: no page shows it. The move
happens on commit (a rolled-back write moves nothing); a page computed before it is stored under the old
version and never served again. Within a transaction that has written, pages are neither read nor stored (that
connection sees rows no other can). A missing counter (flushed, evicted) restarts from the clock in nanoseconds,
so no old entry can match it again. Writes made outside the application's connections (psql, another program)
are not seen: entries live at most `API_PAGE_CACHE_SECONDS`.

Not cached: without Redis (a per-process cache would let one process serve a page another process's write has
outdated), lists read from a replica (a lagging replica could store an old page under a new version), views with
`cache_pages = False` (bodies that depend on more than rows and `fresh_until`), and anything when the cache is
unreachable (computed as without it).
"""

import contextlib
import contextvars
import hashlib
import logging
import re
import threading
import time

from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache
from django.db import DEFAULT_DB_ALIAS, router
from django.db.backends.signals import connection_created
from django.utils import timezone
from rest_framework.response import Response

from .renderers import RenderedJSON, dumps

logger = logging.getLogger("apps.api")

VERSION_KEY = "api:data-version"
READ_STATEMENTS = ("SELECT", "SAVEPOINT", "RELEASE", "ROLLBACK", "SET", "SHOW", "EXPLAIN", "VALUES")
_WRITE_IN_CTE = re.compile(r"\b(INSERT|UPDATE|DELETE|MERGE)\b")
_WRITE_WORDS = ("INSERT", "UPDATE", "DELETE", "MERGE")
_uncommitted = threading.local()  # `connections`: this thread's connections inside a transaction that has written
# The data version `respond()` read with the page, while it computes that page: what `data_version()` answers then
# (a list's total reuses it instead of reading it again, one round trip fewer).
_version_read = contextvars.ContextVar("api_page_data_version", default=None)
_unseen_writes = contextvars.ContextVar("api_page_unseen_writes", default=False)


def bump() -> None:
    """Move the data version: every stored page is a miss from now on."""
    try:
        cache.incr(VERSION_KEY)
    except ValueError:  # missing: start again from the clock, never from a value an old entry may carry
        if not cache.add(VERSION_KEY, time.time_ns(), timeout=None):
            cache.incr(VERSION_KEY)
    except Exception as exc:  # noqa: BLE001 - entries still expire after API_PAGE_CACHE_SECONDS
        logger.warning("Could not move the list pages' data version: %r", exc)


def _written_connections() -> set:
    connections = getattr(_uncommitted, "connections", None)
    if connections is None:
        connections = _uncommitted.connections = set()
    return connections


def _after_commit(connection):
    def moved():
        _written_connections().discard(connection)
        bump()

    return moved


def is_write(sql: str) -> bool:
    """Anything but a read (a `WITH` writes when one of its parts does); unknown statements count as writes."""
    sql = sql if isinstance(sql, str) else str(sql)  # psycopg's composed SQL: judged by its text, else a write
    head = sql.lstrip(" \t\r\n(")[:10].upper()
    if head.startswith("WITH"):  # a case-insensitive regex over a 2 kB statement costs ~70 us, this ~9 us
        upper = sql.upper()
        return any(word in upper for word in _WRITE_WORDS) and _WRITE_IN_CTE.search(upper) is not None
    return not head.startswith(READ_STATEMENTS)


@contextlib.contextmanager
def writes_no_page_shows():
    """Writes inside are bookkeeping that no API page shows (a credential's last use, written at most once a minute
    per credential): they do not move the data version, which would otherwise recompute every stored page of
    every organization each minute for each credential in use."""
    token = _unseen_writes.set(True)
    try:
        yield
    finally:
        _unseen_writes.reset(token)


def watch_writes(execute, sql, params, many, context):
    """Execute wrapper: a write moves the version when its transaction commits (at once in autocommit mode). The
    connection object is used, not its alias: the one that creates test databases is in no `connections` entry."""
    result = execute(sql, params, many, context)
    if is_write(sql) and not _unseen_writes.get():
        connection = context["connection"]
        if connection.in_atomic_block:
            _written_connections().add(connection)
        connection.on_commit(_after_commit(connection))
    return result


def _install(sender, connection, **kwargs):
    if watch_writes not in connection.execute_wrappers:
        connection.execute_wrappers.append(watch_writes)


def connect() -> None:
    """Watch every database connection opened from now on (called once, from the app's `ready()`)."""
    connection_created.connect(_install, dispatch_uid="apps.api.pagecache")


def _has_uncommitted_writes() -> bool:
    connections = _written_connections()
    for connection in list(connections):
        if not connection.in_atomic_block:  # that transaction ended (a rollback runs no commit hook)
            connections.discard(connection)
    return bool(connections)


def versioned(model) -> bool:
    """Whether the data version can vouch for results about `model` computed in this request: only with a cache all
    processes share (Redis), since the version a write moves must be the one every process reads, on the primary,
    and with no write of this request still uncommitted."""
    return (
        isinstance(caches["default"], RedisCache)
        and router.db_for_read(model) == DEFAULT_DB_ALIAS
        and not _has_uncommitted_writes()
    )


def usable(model) -> bool:
    """Whether pages of `model` may be served from or stored in the cache for this request."""
    return settings.API_PAGE_CACHE_SECONDS > 0 and versioned(model)


def data_version(model) -> int | None:
    """The data version now, when results about `model` computed in this request may be reused (a list's total,
    also with the page cache off); None when they may not (see `versioned`) or the version cannot be read."""
    if not versioned(model):
        return None
    version = _version_read.get()
    if version is not None:
        return version
    try:
        return cache.get(VERSION_KEY)
    except Exception as exc:  # noqa: BLE001 - a cache outage only costs the reuse
        logger.warning("Data version unavailable: %r", exc)
        return None


def _page_key(request) -> str:
    identity = f"{request.auth.key}\n{request.organization.pk}\n{request.get_full_path()}"
    return "api:page:" + hashlib.sha256(identity.encode()).hexdigest()


def _lookup(key: str) -> tuple[int | None, tuple | None]:
    """(current data version, stored entry) in one round trip; (None, None) when the cache cannot be read."""
    try:
        found = cache.get_many([VERSION_KEY, key])
    except Exception as exc:  # noqa: BLE001 - a cache outage only costs the caching
        logger.warning("List page cache unavailable: %r", exc)
        return None, None
    version = found.get(VERSION_KEY)
    if version is None:
        bump()
        return None, None
    return version, found.get(key)


def _store(key: str, entry: tuple, now: float, until: float | None) -> None:
    seconds = settings.API_PAGE_CACHE_SECONDS
    if until is not None:  # the entry itself says until when it holds; this only frees the memory soon after
        seconds = min(seconds, max(1, int(until - now) + 1))
    try:
        cache.set(key, entry, seconds)
    except Exception as exc:  # noqa: BLE001
        logger.warning("Could not store a list page: %r", exc)


def _not_modified(request, etag: str) -> bool:
    wanted = request.META.get("HTTP_IF_NONE_MATCH", "")
    return bool(wanted) and (wanted.strip() == "*" or etag in (tag.strip() for tag in wanted.split(",")))


def respond(request, compute) -> Response:
    """The list response: the stored page while its data version and time hold, else `compute()` ->
    (body, fresh_until datetime or None) rendered and stored. `ETag` on both; 304 for a matching `If-None-Match`."""
    key = _page_key(request)
    version, entry = _lookup(key)
    now = timezone.now().timestamp()
    if entry is not None and entry[0] == version and (entry[1] is None or now <= entry[1]):
        etag, body = entry[2], entry[3]
    else:
        token = _version_read.set(version)
        try:
            data, fresh_until = compute()
        finally:
            _version_read.reset(token)
        body = dumps(data)
        etag = f'"{hashlib.blake2b(body, digest_size=16).hexdigest()}"'
        if version is not None:
            until = None if fresh_until is None else fresh_until.timestamp()
            _store(key, (version, until, etag, body), now, until)
    if _not_modified(request, etag):
        return Response(status=304, headers={"ETag": etag})
    return Response(RenderedJSON(body), headers={"ETag": etag})
