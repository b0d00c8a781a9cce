"""The one HTTP client that talks to webhook receivers, hardened against them.

- one POST, one connection (`Connection: close`), no redirects (a 3xx is an answer, never followed);
- a total deadline (`WEBHOOK_TIMEOUT_SECONDS`, 10 s) over resolving, connecting, TLS, sending and reading: every
  socket wait gets only what is left of it, so a receiver that trickles bytes cannot hold a worker longer;
- the address is checked on the socket actually connected (`netguard.address_allowed`), not on a name;
- at most `MAX_HEADER_BYTES` of status line and headers and `MAX_BODY_BYTES` (1 KiB) of body are read, the rest
  is never downloaded; the excerpt is decoded as UTF-8 with replacement characters, so any bytes are harmless.

Written on the socket module rather than a general client library so each of these bounds is explicit.
"""

import email.utils
import socket
import ssl
import time
from dataclasses import dataclass

from django.conf import settings

from . import netguard

MAX_HEADER_BYTES = 16 * 1024
MAX_BODY_BYTES = 1024
USER_AGENT = "Platform-Webhooks/1"


@dataclass
class Answer:
    status: int | None  # None: no HTTP answer (see `error`)
    body: str = ""  # at most MAX_BODY_BYTES of the body, decoded leniently
    error: str = ""  # why there was no (complete) answer: timeout, connection refused, refused address, ...
    duration_ms: int = 0
    retry_after: float | None = None  # seconds, from a Retry-After header
    location: str = ""
    refused: bool = False  # the address is not one a webhook may reach: never retried


class _Deadline:
    def __init__(self, seconds: float):
        self.end = time.monotonic() + seconds

    def left(self) -> float:
        left = self.end - time.monotonic()
        if left <= 0:
            raise TimeoutError("timed out")
        return left


def post(url: str, body: bytes, headers: dict[str, str], *, timeout: float | None = None) -> Answer:
    """POST `body` to `url`; never raises for anything the receiver or the network does."""
    started = time.monotonic()
    timeout = settings.WEBHOOK_TIMEOUT_SECONDS if timeout is None else timeout
    try:
        answer = _post(url, body, headers, _Deadline(timeout))
    except TimeoutError:
        answer = Answer(None, error=f"Timed out after {timeout:g} s.")
    except netguard.RefusedAddress as exc:
        answer = Answer(None, error=str(exc), refused=True)
    except ssl.SSLError as exc:
        answer = Answer(None, error=f"TLS error: {exc.reason or exc}")
    except ValueError as exc:  # the URL itself is not allowed (any more): not worth retrying
        answer = Answer(None, error=f"Refused URL: {exc}", refused=True)
    except (OSError, UnicodeError) as exc:
        answer = Answer(None, error=f"Connection failed: {exc}")
    answer.duration_ms = int((time.monotonic() - started) * 1000)
    return answer


def _post(url, body, headers, deadline: _Deadline) -> Answer:
    scheme, host, port, target = netguard.split_url(url)
    sock = _connect(host, port, deadline)
    try:
        if scheme == "https":
            sock.settimeout(deadline.left())
            sock = ssl.create_default_context().wrap_socket(sock, server_hostname=host)
        host_header = host if ":" not in host else f"[{host}]"
        if port != (443 if scheme == "https" else 80):
            host_header += f":{port}"
        lines = [f"POST {target} HTTP/1.1", f"Host: {host_header}", f"Content-Length: {len(body)}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        lines += [f"User-Agent: {USER_AGENT}", "Connection: close", "", ""]
        payload = "\r\n".join(lines).encode("latin-1") + body
        sock.settimeout(deadline.left())
        sock.sendall(payload)
        return _read_answer(sock, deadline)
    finally:
        sock.close()


def _connect(host: str, port: int, deadline: _Deadline) -> socket.socket:
    infos = netguard.resolve(host, port)
    # Refuse the host when any of its addresses is refused, whichever one a connect would pick.
    for info in infos:
        if not netguard.address_allowed(info[4][0]):
            raise netguard.RefusedAddress(f"Refused address {info[4][0]} (private, loopback or reserved).")
    last_error: OSError | None = None
    for family, type_, proto, _canon, sockaddr in infos:
        sock = socket.socket(family, type_, proto)
        try:
            sock.settimeout(deadline.left())
            sock.connect(sockaddr)
            peer = sock.getpeername()[0]
            if not netguard.address_allowed(peer):  # the address really connected to
                raise netguard.RefusedAddress(f"Refused address {peer} (private, loopback or reserved).")
            return sock
        except (OSError, netguard.RefusedAddress) as exc:
            sock.close()
            if isinstance(exc, (TimeoutError, netguard.RefusedAddress)):
                raise
            last_error = exc
    raise last_error or OSError("no address to connect to")


def _read_answer(sock, deadline: _Deadline) -> Answer:
    buffer = b""
    while b"\r\n\r\n" not in buffer:
        if len(buffer) > MAX_HEADER_BYTES:
            return Answer(None, error="The response headers are too large.")
        sock.settimeout(deadline.left())
        chunk = sock.recv(4096)
        if not chunk:
            return Answer(None, error="The connection closed before a complete HTTP answer.")
        buffer += chunk
    head, _, rest = buffer.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    parts = status_line.split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit() or len(parts[1]) != 3:
        return Answer(None, error="The answer is not HTTP.")
    status = int(parts[1])
    headers = {}
    for line in header_lines:
        name, sep, value = line.partition(":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    body = _read_body(sock, rest, headers, deadline)
    return Answer(
        status,
        body=body.decode("utf-8", errors="replace").replace("\x00", "\ufffd"),
        retry_after=_retry_after(headers.get("retry-after")),
        location=headers.get("location", "")[:200],
    )


def _read_body(sock, rest: bytes, headers: dict, deadline: _Deadline) -> bytes:
    """Up to MAX_BODY_BYTES of the body; a body still arriving at the deadline keeps what came (the status is
    already known)."""
    chunked = "chunked" in headers.get("transfer-encoding", "").lower()
    try:
        length = int(headers["content-length"]) if "content-length" in headers and not chunked else None
    except ValueError:
        length = None
    want = MAX_BODY_BYTES * 2 if chunked else MAX_BODY_BYTES  # chunk framing takes a few bytes
    data = rest
    try:
        while len(data) < want and (length is None or len(data) < length):
            sock.settimeout(deadline.left())
            chunk = sock.recv(4096)
            if not chunk:
                break
            data += chunk
    except (TimeoutError, OSError):
        pass
    if length is not None:
        data = data[:length]
    if chunked:
        data = _dechunk(data)
    return data[:MAX_BODY_BYTES]


def _dechunk(data: bytes) -> bytes:
    out = b""
    while data:
        size_line, sep, data = data.partition(b"\r\n")
        try:
            size = int(size_line.split(b";")[0].strip() or b"0", 16)
        except ValueError:
            break
        if not sep or size == 0:
            break
        out += data[:size]
        data = data[size + 2 :]
    return out


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    if value.strip().isdigit():
        return float(value.strip())
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())
