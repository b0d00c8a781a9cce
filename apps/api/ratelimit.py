"""Fixed 60-second rate-limit buckets per credential, counted in the shared Django cache (Redis in production).

Built on django-ratelimit's core (`get_usage`). Every request counts against the general bucket; a view may
declare one special bucket per action, which is counted in addition. The response headers describe the bucket
with the fewest requests remaining.
"""

from dataclasses import dataclass

from django.conf import settings
from django_ratelimit.core import get_usage

WINDOW_SECONDS = 60
GENERAL = "general"
BOOKING_WRITES = "booking-writes"
BOOK_INTO_CLASS = "book-into-class"
REPORTS = "reports"

BUCKET_LIMITS = {GENERAL: 100, BOOKING_WRITES: 60, BOOK_INTO_CLASS: 60, REPORTS: 20}


def bucket_limit(bucket: str) -> int:
    return max(1, int(BUCKET_LIMITS[bucket] * settings.RATE_LIMIT_MULTIPLIER))


@dataclass(frozen=True)
class BucketState:
    bucket: str
    limit: int
    remaining: int
    reset: int  # seconds until the window resets
    exceeded: bool


def _usage(request, bucket: str, key: str, increment: bool) -> BucketState:
    limit = bucket_limit(bucket)
    usage = get_usage(
        request,
        group=f"platform:{bucket}",
        key=lambda group, req: key,
        rate=(limit, WINDOW_SECONDS),
        increment=increment,
    )
    count = usage["count"] if usage else 0
    reset = max(1, int(usage["time_left"])) if usage else WINDOW_SECONDS
    return BucketState(bucket, limit, max(0, limit - count), reset, count > limit)


def consume(request, credential_key: str, special_bucket: str | None) -> list[BucketState]:
    buckets = [GENERAL] + ([special_bucket] if special_bucket and special_bucket != GENERAL else [])
    return [_usage(request, b, credential_key, increment=True) for b in buckets]


def peek(request, credential_key: str) -> list[BucketState]:
    return [_usage(request, GENERAL, credential_key, increment=False)]


def tightest(states: list[BucketState]) -> BucketState:
    return min(states, key=lambda s: (s.remaining, -s.reset))


def first_exceeded(states: list[BucketState]) -> BucketState | None:
    exceeded = [s for s in states if s.exceeded]
    return max(exceeded, key=lambda s: s.reset) if exceeded else None


def apply_headers(response, state: BucketState):
    response["X-RateLimit-Limit"] = str(state.limit)
    response["X-RateLimit-Remaining"] = str(state.remaining)
    response["X-RateLimit-Reset"] = str(state.reset)
    response["RateLimit-Limit"] = str(state.limit)
    response["RateLimit-Remaining"] = str(state.remaining)
    response["RateLimit-Reset"] = str(state.reset)
    response["RateLimit-Policy"] = f"{state.limit};w={WINDOW_SECONDS}"
