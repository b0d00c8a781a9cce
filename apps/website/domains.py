"""Custom domains of websites: one normal form, the hosts no website may claim, and the DNS TXT challenge that
proves the organization controls the domain before the platform serves it.

- **Normal form**: lower case, IDNA (`bücher.example` is stored as `xn--bcher-kva.example`), no port, no trailing
  dot; at least two labels of letters, digits and hyphens; never an IP address.
- **Reserved**: every host of the platform itself (the API's, the admin's, the authorization server's, the MCP
  server's, the marketplace's, every fixed name in `ALLOWED_HOSTS`) and `SITE_HOST` with everything under it.
- **Challenge**: the organization publishes `TXT <CHALLENGE_LABEL>.<domain> "<CHALLENGE_PREFIX><token>"`, where the
  token is random and kept with the domain (a new domain gets a new token); `verify` looks the record up with
  dnspython and marks the domain verified. Only a verified domain is served (and appears in `url`).

The DNS lookup is `settings.WEBSITE_DOMAIN_TXT_RESOLVER` (a dotted path to `resolver(name) -> list[str]`), so tests
and air-gapped deployments inject their own.
"""

import functools
import ipaddress
import re
import secrets
from urllib.parse import urlsplit

import idna
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.module_loading import import_string

CHALLENGE_LABEL = "_site-verification"
CHALLENGE_PREFIX = "site-verification="
DNS_TIMEOUT_SECONDS = 5.0
_LABEL = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)")
_LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "[::1]", "::1", "testserver"})


class DomainLookupFailed(Exception):
    """The DNS could not be asked (timeout, no name servers): not an answer about the record."""


def hostname(value: str) -> str:
    """The host name of a `Host` value or a URL's netloc: lower case, no port, no trailing dot."""
    value = (value or "").strip().lower()
    if value.startswith("["):  # an IPv6 literal keeps its colons
        return value.split("]", 1)[0] + "]"
    return value.split(":", 1)[0].rstrip(".")


def platform_hosts() -> frozenset[str]:
    """Every host the platform itself answers on; no website may be served on (or claim) one of them."""
    # Read on every request (the website host middleware): computed once per distinct configuration.
    return _platform_hosts(
        settings.BASE_URL, settings.AUTH_URL, settings.MCP_URL, settings.MARKETPLACE_URL, tuple(settings.ALLOWED_HOSTS)
    )


@functools.lru_cache(maxsize=8)
def _platform_hosts(*configured) -> frozenset[str]:
    *urls, allowed_hosts = configured
    hosts = set(_LOCAL_HOSTS)
    for url in urls:
        hosts.add(hostname(urlsplit(url).netloc))
    for host in allowed_hosts:
        if host == "*":
            continue
        hosts.add(hostname(host.lstrip(".")))
    hosts.discard("")
    return frozenset(hosts)


def site_host() -> str:
    return hostname(settings.SITE_HOST)


def normalize_domain(value) -> str | None:
    """The stored form of a custom domain (None for an empty value); ValidationError for one that cannot be a
    website's domain."""
    if value is None:
        return None
    text = str(value).strip()
    if not text:
        return None
    if any(char in text for char in "/@?#*\\ \t\r\n\x00") or text.startswith("["):
        raise ValidationError("Enter a domain name such as www.example.com (no scheme, path or wildcard).")
    host, _, port = text.partition(":")
    if port and not port.isdigit():
        raise ValidationError("Enter a domain name such as www.example.com.")
    host = host.rstrip(".")
    try:
        domain = idna.encode(host, uts46=True).decode("ascii").lower()
    except (idna.IDNAError, UnicodeError, ValueError):
        raise ValidationError(f"{text!r} is not a valid domain name.") from None
    labels = domain.split(".")
    if len(domain) > 253 or len(labels) < 2 or not all(_LABEL.fullmatch(label) for label in labels):
        raise ValidationError(f"{text!r} is not a valid domain name.")
    try:
        ipaddress.ip_address(domain)
    except ValueError:
        pass
    else:
        raise ValidationError("A website is served on a domain name, not an IP address.")
    if labels[-1].isdigit():
        raise ValidationError(f"{text!r} is not a valid domain name.")
    platform = site_host()
    if domain in platform_hosts() or domain == platform or domain.endswith("." + platform):
        raise ValidationError(f"{domain} is one of the platform's own hosts and cannot be a website's domain.")
    return domain


def new_challenge_token() -> str:
    return secrets.token_urlsafe(24)


def challenge_record(domain: str, token: str) -> dict:
    """The TXT record that proves control of `domain`: `{type, name, value}`."""
    return {"type": "TXT", "name": f"{CHALLENGE_LABEL}.{domain}", "value": f"{CHALLENGE_PREFIX}{token}"}


def dns_txt_records(name: str) -> list[str]:
    """The TXT strings published at `name` (each record's parts joined); [] when there is none. Raises
    DomainLookupFailed when the DNS cannot be asked."""
    import dns.exception  # noqa: PLC0415 - imported on use: 7 MB that a web worker checking no domain never needs
    import dns.resolver  # noqa: PLC0415

    try:
        answer = dns.resolver.resolve(name, "TXT", lifetime=DNS_TIMEOUT_SECONDS)
    except (dns.resolver.NXDOMAIN, dns.resolver.NoAnswer):
        return []
    except dns.exception.DNSException as error:  # a timeout, no name servers or no resolver configuration
        raise DomainLookupFailed(str(error)) from error
    return [b"".join(record.strings).decode("utf-8", "replace") for record in answer]


def challenge_published(domain: str, token: str) -> bool:
    """Whether the challenge record of `domain` holds `token` (DomainLookupFailed when the DNS cannot say)."""
    resolver = import_string(settings.WEBSITE_DOMAIN_TXT_RESOLVER)
    expected = challenge_record(domain, token)
    return any(value.strip() == expected["value"] for value in resolver(expected["name"]))
