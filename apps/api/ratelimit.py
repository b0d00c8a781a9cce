"""Fixed 60-second rate-limit buckets per credential, counted in the shared Django cache (Redis in production).

Every request counts against the general bucket; a view may declare one special bucket per action, which is
counted in addition. The response headers describe the bucket with the fewest requests remaining.

Counting is one Redis round trip per request whatever the number of buckets (a pipeline of INCR + EXPIRE per
bucket), plus, at most once a second per client address and process, one GET of the address's failed-authentication
count before authentication (see `refuse_failed_authentication_flood`). Other cache
backends (LocMem for `make run`, per process) fall back to the cache API's add/incr. Windows are aligned to the
epoch with a per-credential jitter (as django-ratelimit does), so the buckets of one credential share their window
boundary. If the cache is unreachable the request is let through (fail open) with full headers, a WARNING is
logged and `fail_open_count()` moves.

Failed authentication has its own bucket per client address (`failed-authentication`, 60 per window): every
401 or 403 of the authentication step counts, and once the bucket is full every request from that address is
refused with 429 TOO_MANY_FAILED_AUTHENTICATIONS before authentication, i.e. before any database work.
"""

import logging
import re
import threading
import time
import zlib
from dataclasses import dataclass

import redis
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from rest_framework.throttling import BaseThrottle

from .exceptions import ApiError
from .metrics import RATE_LIMIT_FAIL_OPEN, count_refusal

logger = logging.getLogger("apps.api")

WINDOW_SECONDS = 60
EXPIRY_FUDGE = 5
GENERAL = "general"
BOOKING_WRITES = "booking-writes"
BOOK_INTO_CLASS = "book-into-class"
REPORTS = "reports"

BUCKET_LIMITS = {
    GENERAL: 100,
    BOOKING_WRITES: 60,
    BOOK_INTO_CLASS: 60,
    REPORTS: 20,
}
FAILED_AUTHENTICATION = "failed-authentication"
FAILED_AUTHENTICATION_LIMIT = 60


def bucket_limit(bucket: str) -> int:
    return max(1, int(BUCKET_LIMITS[bucket] * settings.RATE_LIMIT_MULTIPLIER))


@dataclass(frozen=True)
class BucketState:
    bucket: str
    limit: int
    remaining: int
    reset: int  # seconds until the window resets
    exceeded: bool


def window_end(credential_key: str, now: int | None = None) -> int:
    """The epoch second at which the current window of this credential ends."""
    now = int(time.time()) if now is None else now
    jitter = zlib.crc32(credential_key.encode()) % WINDOW_SECONDS
    end = now - (now % WINDOW_SECONDS) + jitter
    return end + WINDOW_SECONDS if end <= now else end


def cache_key(bucket: str, credential_key: str, end: int) -> str:
    return f"rl:{bucket}:{credential_key}:{end}"


# Options of Django's Redis cache that are its own, not redis-py connection options.
_DJANGO_CACHE_OPTIONS = frozenset({"parser_class", "pool_class", "serializer"})
_redis_clients: dict[str, tuple[dict, redis.Redis]] = {}  # alias -> (the CACHES entry it was built from, client)


def _redis_client(alias: str = "default") -> redis.Redis:
    """A redis-py client on the server the cache `alias` writes to (its first LOCATION, its connection OPTIONS),
    one per process whatever the thread (thread-safe, pooled): building one per call costs more than the call."""
    config = settings.CACHES[alias]
    built = _redis_clients.get(alias)
    if built is not None and built[0] is config:
        return built[1]
    location = config["LOCATION"]
    url = (re.split("[;,]", location)[0] if isinstance(location, str) else location[0]).strip()
    options = {k: v for k, v in config.get("OPTIONS", {}).items() if k not in _DJANGO_CACHE_OPTIONS}
    client = redis.Redis.from_url(url, **options)
    _redis_clients[alias] = (config, client)
    return client


def _count(keys: list[str], increment: bool) -> list[int]:
    """The counts of `keys` (incremented first when `increment`), in one round trip on Redis."""
    cache = caches["default"]
    if isinstance(cache, RedisCache):
        full_keys = [cache.make_and_validate_key(k) for k in keys]
        client = _redis_client()
        if increment:
            pipe = client.pipeline(transaction=False)
            for k in full_keys:
                pipe.incr(k)
                pipe.expire(k, WINDOW_SECONDS + EXPIRY_FUDGE)
            return [int(v) for v in pipe.execute()[::2]]
        return [int(v or 0) for v in client.mget(full_keys)]
    counts = []
    for k in keys:
        if increment:
            if cache.add(k, 1, WINDOW_SECONDS + EXPIRY_FUDGE):
                counts.append(1)
                continue
            try:
                counts.append(cache.incr(k))
            except ValueError:  # expired between add and incr
                cache.add(k, 1, WINDOW_SECONDS + EXPIRY_FUDGE)
                counts.append(1)
        else:
            counts.append(int(cache.get(k) or 0))
    return counts


_fail_open_lock = threading.Lock()
_fail_open_count = 0


def record_fail_open(exc):
    """Count and log a request let through because the rate-limit cache failed."""
    global _fail_open_count
    with _fail_open_lock:
        _fail_open_count += 1
    RATE_LIMIT_FAIL_OPEN.inc()
    logger.warning(
        "Rate-limit counting failed; letting the request through (%d times in this process): %r", _fail_open_count, exc
    )


def fail_open_count() -> int:
    """How many times this process let a request through because the rate-limit cache failed (for health checks:
    a count that keeps rising means limits are not enforced)."""
    return _fail_open_count


def _states(buckets: list[str], credential_key: str, increment: bool, limits: dict | None = None) -> list[BucketState]:
    now = int(time.time())
    end = window_end(credential_key, now)
    try:
        counts = _count([cache_key(b, credential_key, end) for b in buckets], increment)
    except Exception as exc:  # the cache is down: fail open rather than take the API down with it
        record_fail_open(exc)
        counts = [0] * len(buckets)
    reset = max(1, end - now)
    states = []
    for bucket, count in zip(buckets, counts, strict=True):
        limit = limits[bucket] if limits else bucket_limit(bucket)
        states.append(BucketState(bucket, limit, max(0, limit - count), reset, count > limit))
    return states


class TooManyFailedAuthentications(ApiError):
    status_code = 429
    code = "TOO_MANY_FAILED_AUTHENTICATIONS"

    def __init__(self, retry_after: int):
        count_refusal(FAILED_AUTHENTICATION)
        super().__init__(
            f"Too many requests with a missing or invalid credential from this address; retry in {retry_after} "
            "seconds.",
            details={"retryAfter": retry_after},
            headers={"Retry-After": str(retry_after)},
        )


def _failed_authentication_state(address: str, increment: bool) -> BucketState:
    limit = max(1, int(FAILED_AUTHENTICATION_LIMIT * settings.RATE_LIMIT_MULTIPLIER))
    state = _states([FAILED_AUTHENTICATION], f"addr:{address}", increment, {FAILED_AUTHENTICATION: limit})[0]
    return state


# What this process last learned about client addresses, so that a well-behaved client does not pay a cache round
# trip per request: `address -> until` (epoch seconds). An address under its limit is re-read after
# CLEAR_MEMO_SECONDS; an address over it is refused locally until its window ends. A flood spread over several
# processes therefore costs each process at most CLEAR_MEMO_SECONDS of lookups before it refuses it too.
CLEAR_MEMO_SECONDS = 1.0
MEMO_MAX_ADDRESSES = 10_000
_clear_until: dict[str, float] = {}
_blocked_until: dict[str, float] = {}


def forget_addresses():
    """Drop what this process remembers about client addresses (tests; the counters themselves are in the cache)."""
    _clear_until.clear()
    _blocked_until.clear()


def _remember(memo: dict, address: str, until: float):
    if len(memo) >= MEMO_MAX_ADDRESSES:  # bounded memory whatever the number of addresses seen
        memo.clear()
    memo[address] = until


def refuse_failed_authentication_flood(address: str):
    """429 for an address whose failed-authentication bucket is full: no database work, and a cache read at most
    once a second per address and process."""
    now = time.time()
    blocked_until = _blocked_until.get(address)
    if blocked_until is not None:
        if blocked_until > now:
            raise TooManyFailedAuthentications(max(1, int(blocked_until - now + 0.999)))
        _blocked_until.pop(address, None)
    if _clear_until.get(address, 0.0) > now:
        return
    state = _failed_authentication_state(address, increment=False)
    if state.remaining <= 0:
        _remember(_blocked_until, address, now + state.reset)
        raise TooManyFailedAuthentications(state.reset)
    _remember(_clear_until, address, now + CLEAR_MEMO_SECONDS)


def count_failed_authentication(address: str):
    state = _failed_authentication_state(address, increment=True)
    if state.remaining <= 0:
        _clear_until.pop(address, None)
        _remember(_blocked_until, address, time.time() + state.reset)


def consume(request, credential_key: str, special_bucket: str | None) -> list[BucketState]:
    """Count this request against the general bucket and, when given, its special bucket."""
    buckets = [GENERAL] + ([special_bucket] if special_bucket and special_bucket != GENERAL else [])
    for bucket in buckets:
        if bucket not in BUCKET_LIMITS:
            raise ValueError(f"Unknown rate-limit bucket `{bucket}`")
    return _states(buckets, credential_key, increment=True)


def peek(request, credential_key: str) -> list[BucketState]:
    """The general bucket's state without counting (for responses refused before the rate-limit check)."""
    return _states([GENERAL], credential_key, increment=False)


def tightest(states: list[BucketState]) -> BucketState:
    return min(states, key=lambda s: (s.remaining, -s.reset))


def first_exceeded(states: list[BucketState]) -> BucketState | None:
    exceeded = [s for s in states if s.exceeded]
    return max(exceeded, key=lambda s: s.reset) if exceeded else None


def apply_headers(response, state: BucketState):
    limit, remaining, reset = str(state.limit), str(state.remaining), str(state.reset)
    response["X-RateLimit-Limit"] = limit
    response["X-RateLimit-Remaining"] = remaining
    response["X-RateLimit-Reset"] = reset
    response["RateLimit-Limit"] = limit
    response["RateLimit-Remaining"] = remaining
    response["RateLimit-Reset"] = reset
    response["RateLimit-Policy"] = f"{limit};w={WINDOW_SECONDS}"


class BucketThrottle(BaseThrottle):
    """DRF throttle of the Platform API: the credential's general bucket plus the view's bucket for the action
    (`view.get_rate_bucket(request)`, from its `rate_buckets`), counted in one round trip. The tightest state (or
    the exceeded one) is left on `request._rate_limit_state` for the headers and the view's `throttled()`."""

    def allow_request(self, request, view):
        states = consume(request, request.auth.rate_limit_key, view.get_rate_bucket(request))
        exceeded = first_exceeded(states)
        request._rate_limit_state = exceeded or tightest(states)
        if exceeded is not None:
            count_refusal(exceeded.bucket)
        return exceeded is None

    def wait(self):
        return None  # `throttled()` reads the bucket's reset from `request._rate_limit_state`
