"""Prometheus metrics of webhook delivery, recorded by the worker that makes the attempt (no query, no Redis call).

They reach `/metrics` when the workers share the web processes' `PROMETHEUS_MULTIPROC_DIR` (one host); the scrape
also reads the backlog from the database itself (apps/observability/collectors.py), which holds on any layout.
"""

from prometheus_client import Counter, Histogram

ATTEMPTS = Counter(
    "webhook_delivery_attempts_total",
    "Webhook delivery attempts by outcome: sent (2xx), retry (will be attempted again), failed (given up).",
    ["outcome"],
)
LAG = Histogram(
    "webhook_delivery_lag_seconds",
    "Time from a delivery's creation (its event committed) to an attempt, by outcome.",
    ["outcome"],
    buckets=(0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 4 * 3600, 24 * 3600),
)


def record_attempt(outcome: str, lag_seconds: float) -> None:
    ATTEMPTS.labels(outcome).inc()
    LAG.labels(outcome).observe(max(0.0, lag_seconds))
