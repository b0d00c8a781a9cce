"""`GET /healthz`: liveness and readiness for a load balancer or an orchestrator, without a credential.

It answers what an operator needs and nothing about any organization: whether this process reaches the database
and the cache, and how many times this process served a request unlimited because the rate-limit cache failed
(`rateLimitFailOpen`, per process: a value that keeps rising means limits are not enforced). 200 when the
database answers, 503 otherwise (the cache failing open still serves requests, so it does not fail the check).
"""

import logging

from django.core.cache import cache
from django.db import connection
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

from . import ratelimit
from .middleware import json_response

logger = logging.getLogger("apps.api")
PROBE_KEY = "healthz:probe"


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception as exc:  # any driver error means "not ready"
        logger.warning("Health check: database unreachable: %r", exc)
        return False


def _cache_ok() -> bool:
    try:
        cache.set(PROBE_KEY, 1, timeout=10)
        return cache.get(PROBE_KEY) == 1
    except Exception as exc:
        logger.warning("Health check: cache unreachable: %r", exc)
        return False


@csrf_exempt
@never_cache
@require_safe
def healthz(request):
    database, cache_ok = _database_ok(), _cache_ok()
    body = {
        "status": "ok" if database else "unavailable",
        "database": "ok" if database else "error",
        "cache": "ok" if cache_ok else "error",
        "rateLimitFailOpen": ratelimit.fail_open_count(),
    }
    return json_response(body, 200 if database else 503, request)
