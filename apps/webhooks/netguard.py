"""Which receiver URLs and addresses a webhook may reach.

Refused: any address that is not globally routable (private, loopback, link-local, which includes the cloud
metadata address 169.254.169.254, shared CGNAT space, multicast, reserved, unspecified), IPv4 embedded in IPv6
(mapped, 6to4, Teredo, NAT64) counted as its IPv4 address (the rule is `apps.api.outbound.is_public_address`, shared
with the OAuth metadata-document fetches), and the IPv6 metadata address fd00:ec2::254. The check runs
when a subscription's URL is set (every address the host resolves to) and again at every delivery on the address
actually connected to, so a host that later resolves elsewhere (DNS rebinding) is refused at that moment.

`WEBHOOK_ALLOW_PRIVATE_NETWORKS=true` lifts the address rule and allows `http://` (development and tests only:
unsafe in production, since any API credential could then make the workers call internal services).
"""

import socket
from urllib.parse import urlsplit

from django.conf import settings

from apps.api.outbound import is_public_address

MAX_URL_LENGTH = 2048


class RefusedAddress(Exception):
    pass


def private_networks_allowed() -> bool:
    return bool(getattr(settings, "WEBHOOK_ALLOW_PRIVATE_NETWORKS", False))


def address_allowed(address: str) -> bool:
    """Whether a webhook may connect to `address` (an IP literal): the platform's one public-address rule."""
    return private_networks_allowed() or is_public_address(address.split("%", 1)[0])


def resolve(host: str, port: int) -> list[tuple]:
    """getaddrinfo's TCP addresses of `host` (an IP literal resolves to itself)."""
    return socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)


def split_url(url: str):
    """(scheme, host, port, target) of an allowed receiver URL; ValueError naming the problem otherwise."""
    if len(url) > MAX_URL_LENGTH:
        raise ValueError(f"Must be at most {MAX_URL_LENGTH} characters.")
    if any(ord(c) < 33 or ord(c) == 127 for c in url):
        raise ValueError("Must not contain spaces or control characters.")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise ValueError("Must be a valid URL.") from None
    schemes = ("https", "http") if private_networks_allowed() else ("https",)
    if parts.scheme not in schemes:
        raise ValueError("Must be an https:// URL.")
    if not parts.hostname:
        raise ValueError("Must name a host.")
    if parts.username is not None or parts.password is not None:
        raise ValueError("Must not carry credentials (user:password@).")
    port = port or (443 if parts.scheme == "https" else 80)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.scheme, parts.hostname, port, target


def check_subscription_url(url: str) -> None:
    """Raises ValueError (the message names the problem) for a URL a subscription may not use: not https, too
    long, unresolvable, or resolving to any refused address."""
    _scheme, host, port, _target = split_url(url)
    try:
        addresses = {info[4][0] for info in resolve(host, port)}
    except (OSError, UnicodeError):
        raise ValueError("The host does not resolve.") from None
    refused = sorted(a for a in addresses if not address_allowed(a))
    if refused:
        raise ValueError(f"Resolves to a private, loopback, link-local or reserved address ({refused[0]}).")
