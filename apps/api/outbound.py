"""The one hardened HTTP client for requests to addresses that a client of the service chose (OAuth Client ID
Metadata Documents; webhook deliveries may use it too).

- The host is resolved once and every address it resolves to must be public: private, loopback, link-local (the
  cloud metadata address 169.254.169.254 included), CGNAT, multicast, reserved and unspecified addresses are
  refused, as are IPv6 forms embedding one (mapped, 6to4, Teredo, NAT64). The connection then goes to that
  validated address (TLS verification and `Host` still use the name), so a second DNS answer cannot rebind it.
  `allow_private=True` lifts the address rule, for development settings only.
- One deadline for the whole exchange (connect, TLS and every read), a size cap read incrementally (a larger body
  is refused without reading it all), never a redirect (a 3xx is an answer like any other, reported as such).
"""

import ipaddress
import socket
import ssl
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

import urllib3

NAT64_PREFIX = ipaddress.ip_network("64:ff9b::/96")
DEFAULT_TIMEOUT_SECONDS = 5.0
DEFAULT_MAX_BYTES = 64 * 1024
READ_CHUNK = 16 * 1024


class OutboundError(Exception):
    """A request that could not be made or answered within the rules; `reason` is a stable short code."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason
        self.message = message


@dataclass(frozen=True)
class OutboundResponse:
    status: int
    headers: dict
    body: bytes

    def header(self, name: str) -> str:
        return self.headers.get(name.lower(), "")


def is_public_address(ip: str) -> bool:
    try:
        address = ipaddress.ip_address(ip)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address):
        if address.teredo is not None:
            return all(part.is_global for part in address.teredo)
        embedded = address.ipv4_mapped or address.sixtofour
        if embedded is None and address in NAT64_PREFIX:
            embedded = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
        if embedded is not None:
            address = embedded
    return address.is_global and not address.is_multicast


def resolve(host: str, port: int, *, allow_private: bool) -> list[str]:
    try:
        infos = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError) as exc:
        raise OutboundError("dns", f"The host {host} could not be resolved.") from exc
    addresses = list(dict.fromkeys(info[4][0] for info in infos))
    if not addresses:
        raise OutboundError("dns", f"The host {host} did not resolve to any address.")
    if not allow_private:
        for address in addresses:
            if not is_public_address(address):
                raise OutboundError(
                    "private_address", f"The host {host} resolves to a non-public address ({address}); refused."
                )
    return addresses


def fetch(
    url: str,
    *,
    schemes=("https",),
    timeout: float = DEFAULT_TIMEOUT_SECONDS,
    max_bytes: int = DEFAULT_MAX_BYTES,
    allow_private: bool = False,
    extra_ca_file: str = "",
    headers: dict | None = None,
) -> OutboundResponse:
    """GET `url` under the rules above; raises OutboundError (`reason`: scheme, url, dns, private_address, connect,
    timeout, too_large)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise OutboundError("url", "The URL is not valid.") from exc
    scheme = parts.scheme.lower()
    if scheme not in schemes:
        raise OutboundError("scheme", f"Only {', '.join(schemes)} URLs are fetched.")
    host = parts.hostname
    if not host or parts.username is not None or parts.password is not None:
        raise OutboundError("url", "The URL must name a host and carry no user information.")
    port = port or (443 if scheme == "https" else 80)
    deadline = time.monotonic() + timeout
    addresses = resolve(host, port, allow_private=allow_private)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    request_headers = {"Host": parts.netloc.rsplit("@", 1)[-1], "User-Agent": "platform-outbound/1"}
    request_headers.update(headers or {})
    last_error = None
    for address in addresses:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        pool_timeout = urllib3.Timeout(connect=remaining, read=remaining, total=remaining)
        if scheme == "https":
            context = ssl.create_default_context()
            if extra_ca_file:
                context.load_verify_locations(cafile=extra_ca_file)
            pool = urllib3.HTTPSConnectionPool(
                host=address,
                port=port,
                timeout=pool_timeout,
                retries=False,
                maxsize=1,
                ssl_context=context,
                server_hostname=host,
                assert_hostname=host,
            )
        else:
            pool = urllib3.HTTPConnectionPool(host=address, port=port, timeout=pool_timeout, retries=False, maxsize=1)
        try:
            response = pool.urlopen(
                "GET", path, headers=request_headers, redirect=False, preload_content=False, retries=False
            )
            try:
                return _read(response, max_bytes, deadline)
            finally:
                response.release_conn()
        except OutboundError:
            raise
        except (urllib3.exceptions.TimeoutError, TimeoutError) as exc:
            last_error = OutboundError("timeout", f"No complete answer within {timeout:g} seconds.")
            last_error.__cause__ = exc
        except (urllib3.exceptions.HTTPError, OSError) as exc:
            last_error = OutboundError("connect", f"The connection failed ({type(exc).__name__}).")
            last_error.__cause__ = exc
        finally:
            pool.close()
    raise last_error or OutboundError("timeout", f"No complete answer within {timeout:g} seconds.")


def _read(response, max_bytes: int, deadline: float) -> OutboundResponse:
    declared = response.headers.get("Content-Length")
    if declared and declared.isdigit() and int(declared) > max_bytes:
        raise OutboundError("too_large", f"The answer is larger than {max_bytes} bytes.")
    pieces, size = [], 0
    while True:
        if time.monotonic() > deadline:
            raise OutboundError("timeout", "The answer was not complete in time.")
        chunk = response.read(READ_CHUNK)
        if not chunk:
            break
        size += len(chunk)
        if size > max_bytes:
            raise OutboundError("too_large", f"The answer is larger than {max_bytes} bytes.")
        pieces.append(chunk)
    headers = {name.lower(): value for name, value in response.headers.items()}
    return OutboundResponse(response.status, headers, b"".join(pieces))
