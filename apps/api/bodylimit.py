"""The size cap on Platform API request bodies (`API_MAX_BODY_BYTES`, 1 MiB by default), applied before any read.

DRF reads bodies from the stream, so Django's `DATA_UPLOAD_MAX_MEMORY_SIZE` never applies to them. A declared
`Content-Length` over the cap is refused from the header alone; a chunked body (no length) is read up to the cap
and refused at the first byte beyond it, so a worker never holds more than the cap in memory.

The answer is 413 PAYLOAD_TOO_LARGE in the envelope. So that a client which sends its whole body before reading
the answer gets to read it (instead of a connection reset when the server closes on unread data), the rest of
the body is read and discarded, in small pieces, up to DRAIN_MAX_BYTES or DRAIN_MAX_SECONDS; a larger declared
body is not drained at all (the answer is written at once and the connection closed).
"""

import io
import time

from django.conf import settings

from .exceptions import ApiError

DRAIN_MAX_BYTES = 64 * 1024 * 1024
DRAIN_MAX_SECONDS = 10.0
READ_CHUNK = 64 * 1024


class PayloadTooLarge(ApiError):
    status_code = 413
    code = "PAYLOAD_TOO_LARGE"

    def __init__(self, max_bytes: int):
        super().__init__(
            f"The request body is larger than the maximum of {max_bytes} bytes.", details={"maxBytes": max_bytes}
        )


def declared_length(meta) -> int:
    try:
        return max(0, int(meta.get("CONTENT_LENGTH") or 0))
    except ValueError:
        return 0


def is_chunked(meta) -> bool:
    return "chunked" in meta.get("HTTP_TRANSFER_ENCODING", "").lower()


def _discard(read, budget: int):
    """Read and drop up to `budget` bytes (or until the time budget runs out or the body ends)."""
    deadline = time.monotonic() + DRAIN_MAX_SECONDS
    while budget > 0 and time.monotonic() < deadline:
        try:
            data = read(min(READ_CHUNK, budget))
        except OSError:  # the client went away: nobody is left to read the answer
            return
        if not data:
            return
        budget -= len(data)


def enforce(request, max_bytes: int | None = None):
    """Raise PayloadTooLarge for a body over the cap; make a chunked body within it readable as a normal one.

    `request` is Django's HttpRequest, before anything has read its body.
    """
    max_bytes = settings.API_MAX_BODY_BYTES if max_bytes is None else max_bytes
    meta = request.META
    length = declared_length(meta)
    if length > max_bytes:
        if length <= DRAIN_MAX_BYTES:
            _discard(request.read, length)
        raise PayloadTooLarge(max_bytes)
    if length or not is_chunked(meta):
        return
    # Chunked: the server decodes the chunks into wsgi.input; Django would see an empty body (no length).
    stream = meta["wsgi.input"]
    pieces, size = [], 0
    while size <= max_bytes:
        data = stream.read(min(READ_CHUNK, max_bytes + 1 - size))
        if not data:
            break
        pieces.append(data)
        size += len(data)
    if size > max_bytes:
        _discard(stream.read, DRAIN_MAX_BYTES)
        raise PayloadTooLarge(max_bytes)
    body = b"".join(pieces)
    request._stream = io.BytesIO(body)
    meta["CONTENT_LENGTH"] = str(len(body))
