"""Gauges read when `/metrics` is scraped (never on a request): Celery queue depth and the webhook backlog.

Each costs one round trip per scrape (a Redis pipeline of LLENs, one aggregate query), so their cost does not grow
with traffic.
"""

import logging

import redis
from django.conf import settings
from django.db.models import Count, Min
from django.db.models.functions import Coalesce
from django.utils import timezone
from prometheus_client.core import GaugeMetricFamily

from apps.webhooks.choices import DeliveryStatus
from apps.webhooks.models import WebhookDelivery

logger = logging.getLogger(__name__)

# kombu's Redis transport keeps a queue as a list named after it, plus one list per priority step above 0
# ("<queue>\x06\x16<priority>", default steps 0, 3, 6, 9).
PRIORITY_SUFFIXES = ("", "\x06\x163", "\x06\x166", "\x06\x169")


def configured_queues() -> list[str]:
    queues = {getattr(settings, "CELERY_TASK_DEFAULT_QUEUE", "celery")}
    for route in settings.CELERY_TASK_ROUTES.values():
        if isinstance(route, dict) and route.get("queue"):
            queues.add(route["queue"])
    return sorted(queues)


_brokers: dict[str, redis.Redis] = {}


def _broker_client() -> redis.Redis:
    url = settings.CELERY_BROKER_URL
    if url not in _brokers:  # one pooled client per broker URL and process
        _brokers[url] = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
    return _brokers[url]


class QueueDepthCollector:
    def collect(self):
        depth = GaugeMetricFamily(
            "celery_queue_length", "Messages waiting in a Celery queue (broker list length).", labels=["queue"]
        )
        up = GaugeMetricFamily("celery_broker_up", "1 when the broker answered this scrape.")
        if not settings.CELERY_BROKER_URL.startswith(("redis://", "rediss://", "unix://")):
            return  # the in-memory broker of development and tests holds no lists to read
        queues = configured_queues()
        try:
            pipe = _broker_client().pipeline(transaction=False)
            for queue in queues:
                for suffix in PRIORITY_SUFFIXES:
                    pipe.llen(queue + suffix)
            lengths = pipe.execute()
        except Exception as exc:  # a scrape must answer even when the broker is down: that is what it reports
            logger.warning("Could not read the Celery queue lengths: %r", exc)
            up.add_metric([], 0)
            yield up
            return
        step = len(PRIORITY_SUFFIXES)
        for index, queue in enumerate(queues):
            depth.add_metric([queue], sum(lengths[index * step : (index + 1) * step]))
        up.add_metric([], 1)
        yield depth
        yield up


class WebhookBacklogCollector:
    def collect(self):
        now = timezone.now()
        backlog = WebhookDelivery.objects.filter(status=DeliveryStatus.PENDING).aggregate(
            pending=Count("id"), oldest=Min(Coalesce("next_attempt_at", "created_at"))
        )
        pending = GaugeMetricFamily("webhook_deliveries_pending", "Webhook deliveries not yet sent or given up.")
        pending.add_metric([], backlog["pending"])
        yield pending
        lag = GaugeMetricFamily(
            "webhook_delivery_oldest_due_seconds",
            "How long the oldest pending delivery has been due (0 when none is due): the delivery lag right now.",
        )
        oldest = backlog["oldest"]  # a retry scheduled in the future is not late yet
        lag.add_metric([], max(0.0, (now - oldest).total_seconds()) if oldest else 0.0)
        yield lag
