"""Prometheus metrics of the web process: request latency by route and rate-limit refusals by bucket.

Recording is in-process (a histogram observation, a counter increment: no query, no Redis call); the numbers are
read when `/metrics` is scraped (apps/observability). Under gunicorn with several workers, set
`PROMETHEUS_MULTIPROC_DIR` to an empty directory shared by the workers (prometheus_client then keeps each
process's values in files there and the scrape sums them; see docs/deployment.md).

Labels stay bounded: the route is the URL pattern that resolved (`/v1/platform/classes/<pk>`), never the raw path;
an unresolved request (404, a site host) is `<unmatched>`.
"""

import re

from prometheus_client import Counter, Histogram

REQUEST_LATENCY = Histogram(
    "http_request_duration_seconds",
    "Time from the first middleware to the response, by route pattern, method and status class.",
    ["route", "method", "status"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
RATE_LIMIT_REFUSALS = Counter(
    "ratelimit_refusals_total",
    "Requests refused with 429 by a rate limit, by bucket (credential buckets, public address groups, "
    "failed-authentication).",
    ["bucket"],
)
RATE_LIMIT_FAIL_OPEN = Counter(
    "ratelimit_fail_open_total",
    "Requests let through unlimited because the rate-limit cache (Redis) failed: a rising count means limits are off.",
)
UNMATCHED = "<unmatched>"
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
_REGEX_GROUP = re.compile(r"\(\?P<(\w+)>[^)]*\)")
_routes: dict[str, str] = {}


def route_label(request) -> str:
    """The resolved route pattern: DRF router regexes read like Django paths (`(?P<pk>[^/.]+)` -> `<pk>`)."""
    match = getattr(request, "resolver_match", None)
    route = getattr(match, "route", None)
    if not route:
        return UNMATCHED
    label = _routes.get(route)
    if label is None:
        label = "/" + _REGEX_GROUP.sub(r"<\1>", route).replace("^", "").replace("$", "").replace("\\", "")
        if len(_routes) < 5000:  # the patterns are finite; the cap only guards against a surprise
            _routes[route] = label
    return label


_series: dict[tuple, object] = {}


def observe_request(request, status: int, seconds: float) -> None:
    """One histogram observation (about 2 µs): the labelled child is looked up once per label combination."""
    method = request.method if request.method in METHODS else "other"
    key = (route_label(request), method, status // 100)
    child = _series.get(key)
    if child is None:
        child = _series[key] = REQUEST_LATENCY.labels(key[0], method, f"{key[2]}xx")
    child.observe(seconds)


def count_refusal(bucket: str) -> None:
    RATE_LIMIT_REFUSALS.labels(bucket).inc()
