"""The address a request came from, for per-address limits.

`REMOTE_ADDR` by default: a client-supplied header is never trusted unless the deployment says how many proxies
of its own stand in front of the app (`TRUSTED_PROXY_COUNT`). With N trusted proxies, each appends the address it
received the request from to `X-Forwarded-For`, so the client is the N-th entry from the right; entries further
left were written by the client and are ignored. IPv6 clients are grouped by their /64 (one host usually holds a
whole /64, so single addresses would be free to rotate).
"""

import ipaddress

from django.conf import settings


def _exact(value: str):
    try:
        address = ipaddress.ip_address(value.strip())
    except ValueError:
        return None
    return address.ipv4_mapped if address.version == 6 and address.ipv4_mapped else address


def _normalized(value: str) -> str | None:
    address = _exact(value)
    if address is None:
        return None
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def _forwarded_hop(request) -> str | None:
    """The entry the trusted proxies wrote for the client in `X-Forwarded-For` (N-th from the right), if any."""
    trusted = settings.TRUSTED_PROXY_COUNT
    hops = [hop for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
    return hops[-trusted] if trusted > 0 and len(hops) >= trusted else None


def client_address(request) -> str:
    hop = _forwarded_hop(request)
    forwarded = _normalized(hop) if hop is not None else None
    if forwarded:
        return forwarded
    remote = request.META.get("REMOTE_ADDR", "")
    return _normalized(remote) or remote[:100] or "unknown"


def client_ip(request) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The exact address the request came from (same proxy rule, no /64 grouping), for allow-lists such as
    `METRICS_ALLOWED_NETWORKS`; None when it is not an address."""
    hop = _forwarded_hop(request)
    return _exact(hop if hop is not None else request.META.get("REMOTE_ADDR", ""))
