"""`GET /metrics`: the Prometheus exposition, for configured networks or a bearer token only; anyone else gets the
site's ordinary 404, so the endpoint is not revealed.

Allowed: the client address (`client_ip` of apps/api/client_address.py, so behind `TRUSTED_PROXY_COUNT` proxies
the forwarded one, never the proxy's) inside one of `METRICS_ALLOWED_NETWORKS` (CIDRs; loopback by default), or
`Authorization: Bearer <METRICS_TOKEN>` (compared in constant time; no token configured = no token accepted).
Outside /v1/ and not a DRF view, so it is not part of the OpenAPI document.
"""

import hmac
import ipaddress
import os

from django.conf import settings
from django.http import Http404, HttpResponse
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest, multiprocess

from apps.api.client_address import client_ip

from .collectors import QueueDepthCollector, WebhookBacklogCollector

_networks_cache: tuple[str, list] = ("", [])


def allowed_networks() -> list:
    global _networks_cache
    configured = settings.METRICS_ALLOWED_NETWORKS
    key = ",".join(configured)
    if _networks_cache[0] != key:
        _networks_cache = (key, [ipaddress.ip_network(n.strip(), strict=False) for n in configured if n.strip()])
    return _networks_cache[1]


def from_allowed_network(request) -> bool:
    client = client_ip(request)
    return client is not None and any(client in net for net in allowed_networks())


def has_token(request) -> bool:
    token = settings.METRICS_TOKEN
    if not token:
        return False
    scheme, _, presented = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(presented.strip().encode(), token.encode())


def _registry():
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        # Several worker processes: sum the values every process wrote to the shared directory.
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        registry = CollectorRegistry()
        registry.register(_ProcessRegistry())
    registry.register(QueueDepthCollector())
    registry.register(WebhookBacklogCollector())
    return registry


class _ProcessRegistry:
    """This process's default registry (request latency, refusals, process and Python metrics)."""

    def collect(self):
        yield from REGISTRY.collect()


def metrics(request):
    if request.method not in ("GET", "HEAD") or not (from_allowed_network(request) or has_token(request)):
        raise Http404
    response = HttpResponse(generate_latest(_registry()), content_type=CONTENT_TYPE_LATEST)
    response["Cache-Control"] = "no-store"
    return response
