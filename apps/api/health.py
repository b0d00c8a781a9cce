"""`GET /healthz` (liveness) and `GET /readyz` (readiness) for a load balancer or an orchestrator, without a
credential, never cached, and saying nothing about any organization.

- `/healthz` answers 200 `{status: "ok", rateLimitFailOpen}` while the process serves: it touches neither the
  database nor Redis, so a database outage does not get healthy processes restarted. `rateLimitFailOpen` counts (per
  process) the requests served unlimited because the rate-limit cache failed: a value that keeps rising means
  limits are not enforced.
- `/readyz` answers 200 only when PostgreSQL and Redis answer and every migration is applied, 503 otherwise, with
  `{status: "ok" | "unavailable", checks: {database, redis, migrations: "ok" | "error"}}`. `redis` probes the shared
  cache (Redis whenever `REDIS_URL` is set; the embedded default's in-process cache otherwise). A fully migrated
  database is remembered per process: new migrations arrive with new code, i.e. new processes.
"""

import logging

from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.migrations.executor import MigrationExecutor
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

from . import ratelimit
from .middleware import json_response

logger = logging.getLogger("apps.api")
PROBE_KEY = "readyz:probe"
OK, ERROR = "ok", "error"
_migrated = False


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception as exc:  # any driver error means "not ready"
        logger.warning("Readiness: database unreachable: %r", exc)
        return False


def _redis_ok() -> bool:
    try:
        cache.set(PROBE_KEY, 1, timeout=10)
        return cache.get(PROBE_KEY) == 1
    except Exception as exc:
        logger.warning("Readiness: cache unreachable: %r", exc)
        return False


def _migrations_ok() -> bool:
    global _migrated
    if not _migrated:
        try:
            executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
            _migrated = not executor.migration_plan(executor.loader.graph.leaf_nodes())
        except Exception as exc:
            logger.warning("Readiness: migrations could not be read: %r", exc)
            return False
        if not _migrated:
            logger.warning("Readiness: unapplied migrations")
    return _migrated


@csrf_exempt
@never_cache
@require_safe
def healthz(request):
    return json_response({"status": "ok", "rateLimitFailOpen": ratelimit.fail_open_count()}, 200, request)


@csrf_exempt
@never_cache
@require_safe
def readyz(request):
    database = _database_ok()
    checks = {
        "database": OK if database else ERROR,
        "redis": OK if _redis_ok() else ERROR,
        "migrations": OK if database and _migrations_ok() else ERROR,
    }
    ready = all(value == OK for value in checks.values())
    return json_response({"status": "ok" if ready else "unavailable", "checks": checks}, 200 if ready else 503, request)
