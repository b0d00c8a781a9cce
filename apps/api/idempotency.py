"""`Idempotency-Key` on Platform API POSTs, stored in the database.

Keys belong to the credential that sent them (an API key, or an OAuth token's grant), as Stripe's belong to one
API key: another credential of the same organization neither replays nor pre-claims them, so a replay never shows
a response computed for wider scopes. The unique constraint on (credential, key) makes two concurrent first uses
safe: exactly one inserts the in-progress row; the other sees it and answers 409 IDEMPOTENCY_KEY_IN_PROGRESS.
"""

import hashlib
import logging
from datetime import timedelta

import orjson
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.response import Response

from .exceptions import ApiError
from .models import IdempotencyRecord
from .renderers import dumps

logger = logging.getLogger("apps.api")

HEADER = "Idempotency-Key"
STALE_IN_PROGRESS = timedelta(minutes=5)  # a request that died mid-way releases its key after this
REPLAYED_HEADERS = ("Location",)
PATH_MAX_LENGTH = IdempotencyRecord._meta.get_field("path").max_length
PATH_DIGEST_MARK = "#sha256="


def _valid_key(key: str) -> bool:
    return 1 <= len(key) <= 255 and all(0x20 <= ord(c) <= 0x7E for c in key)


def stored_path(full_path: str) -> str:
    """The path as the record stores it: as is when it fits the column, else a prefix plus the SHA-256 of the
    whole path (so two long paths that differ only past the prefix remain different requests)."""
    if len(full_path) <= PATH_MAX_LENGTH:
        return full_path
    digest = hashlib.sha256(full_path.encode("utf-8", "surrogatepass")).hexdigest()
    return full_path[: PATH_MAX_LENGTH - len(PATH_DIGEST_MARK) - len(digest)] + PATH_DIGEST_MARK + digest


def body_hash(data) -> str:
    try:
        canonical = orjson.dumps(data, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
    except TypeError:
        canonical = repr(data).encode()
    return hashlib.sha256(canonical).hexdigest()


class Replay(Exception):  # noqa: N818 (control flow, not an error)
    """Raised by the view's `initial()` to answer with the stored response instead of running the handler again."""

    def __init__(self, response: Response):
        super().__init__("Idempotent replay")
        self.response = response


class IdempotentRequest:
    def __init__(self, record: IdempotencyRecord | None, replay: Response | None = None):
        self.record = record
        self.replay = replay

    def finish(self, response):
        """Store a 2xx response for replays; release the key after anything else (a retry runs again).

        Never raises: the request's side effects have happened, so a failure to store only costs the replay.
        """
        if self.record is None:
            return
        try:
            if 200 <= response.status_code < 300:
                headers = {h: response[h] for h in REPLAYED_HEADERS if response.has_header(h)}
                IdempotencyRecord.objects.filter(pk=self.record.pk).update(
                    state=IdempotencyRecord.COMPLETED,
                    response_status=response.status_code,
                    response_body=_stored_body(response),
                    response_headers=headers,
                )
            else:
                self.release()
        except Exception:
            logger.exception("Could not store the Idempotency-Key response; releasing the key")
            self.release()

    def release(self):
        if self.record is not None:
            IdempotencyRecord.objects.filter(pk=self.record.pk, state=IdempotencyRecord.IN_PROGRESS).delete()
            self.record = None


def _stored_body(response):
    """The JSON body of a response: DRF's `data`, or the parsed bytes of a plain HttpResponse."""
    if hasattr(response, "data"):
        return orjson.loads(dumps(response.data)) if response.data is not None else None
    content = getattr(response, "content", b"")
    return orjson.loads(content) if content else None


def begin(request, credential) -> IdempotentRequest | None:
    """Claim the credential's key, or answer a replay / a conflict. None when the request carries no key."""
    key = request.headers.get(HEADER)
    if key is None:
        return None
    if not _valid_key(key):
        raise ApiError(
            "The Idempotency-Key must be 1 to 255 printable ASCII characters.", code="INVALID_IDEMPOTENCY_KEY"
        )
    fingerprint = body_hash(request.data)
    path = stored_path(request.get_full_path())
    organization, credential_key = credential.organization, credential.key
    now = timezone.now()
    for _ in range(3):
        try:
            with transaction.atomic():
                record = IdempotencyRecord.objects.create(
                    organization=organization,
                    credential_key=credential_key,
                    key=key,
                    method=request.method,
                    path=path,
                    body_hash=fingerprint,
                )
            return IdempotentRequest(record)
        except IntegrityError:
            existing = IdempotencyRecord.objects.filter(credential_key=credential_key, key=key).first()
            if existing is None:
                continue
            expired = existing.created_at < now - timedelta(hours=settings.IDEMPOTENCY_TTL_HOURS)
            stale = existing.state == IdempotencyRecord.IN_PROGRESS and existing.created_at < now - STALE_IN_PROGRESS
            if expired or stale:
                IdempotencyRecord.objects.filter(pk=existing.pk, created_at=existing.created_at).delete()
                continue
            if (existing.method, existing.path, existing.body_hash) != (request.method, path, fingerprint):
                raise ApiError(
                    "This Idempotency-Key was used with a different request.",
                    code="IDEMPOTENCY_KEY_REUSED",
                    status=422,
                )
            if existing.state == IdempotencyRecord.IN_PROGRESS:
                raise ApiError(
                    "A request with this Idempotency-Key is still in progress.",
                    code="IDEMPOTENCY_KEY_IN_PROGRESS",
                    status=409,
                )
            response = Response(existing.response_body, status=existing.response_status)
            for name, value in (existing.response_headers or {}).items():
                response[name] = value
            response["Idempotent-Replayed"] = "true"
            return IdempotentRequest(None, replay=response)
    raise ApiError(
        "A request with this Idempotency-Key is still in progress.", code="IDEMPOTENCY_KEY_IN_PROGRESS", status=409
    )


def purge_expired() -> int:
    cutoff = timezone.now() - timedelta(hours=settings.IDEMPOTENCY_TTL_HOURS)
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=cutoff).delete()
    return deleted
