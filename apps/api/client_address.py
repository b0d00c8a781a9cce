"""The address a request came from, for per-address limits.

`REMOTE_ADDR` by default: a client-supplied header is never trusted unless the deployment says how many proxies
of its own stand in front of the app (`TRUSTED_PROXY_COUNT`). With N trusted proxies, each appends the address it
received the request from to `X-Forwarded-For`, so the client is the N-th entry from the right; entries further
left were written by the client and are ignored. IPv6 clients are grouped by their /64 (one host usually holds a
whole /64, so single addresses would be free to rotate).
"""

import ipaddress

from django.conf import settings


def _normalized(value: str) -> str | None:
    try:
        address = ipaddress.ip_address(value.strip())
    except ValueError:
        return None
    if address.version == 6:
        if address.ipv4_mapped:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def client_address(request) -> str:
    meta = request.META
    trusted = settings.TRUSTED_PROXY_COUNT
    if trusted > 0:
        hops = [hop for hop in meta.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
        if len(hops) >= trusted:
            forwarded = _normalized(hops[-trusted])
            if forwarded:
                return forwarded
    remote = meta.get("REMOTE_ADDR", "")
    return _normalized(remote) or remote[:100] or "unknown"


def client_ip(request) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The exact address the request came from (same proxy rule, no /64 grouping), for allow-lists such as
    `METRICS_ALLOWED_NETWORKS`; None when it is not an address."""
    meta = request.META
    trusted = settings.TRUSTED_PROXY_COUNT
    if trusted > 0:
        hops = [hop for hop in meta.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
        if len(hops) >= trusted:
            return _exact(hops[-trusted])
    return _exact(meta.get("REMOTE_ADDR", ""))


def _exact(value: str):
    try:
        address = ipaddress.ip_address(value.strip())
    except ValueError:
        return None
    return address.ipv4_mapped if address.version == 6 and address.ipv4_mapped else address
