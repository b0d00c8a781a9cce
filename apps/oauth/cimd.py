"""Client ID Metadata Documents: a `client_id` that is an https URL names its own metadata.

The document is fetched with the hardened client (apps.api.outbound: 5 s, 64 KiB, no redirects, public addresses
only unless `OAUTH_CIMD_ALLOW_PRIVATE_ADDRESSES`), validated like a registration (its `client_id` must equal the
URL; public client; redirect URIs by the same rules), stored as a `Client` row and reused until its HTTP caching
headers say otherwise (at most 24 h, at least 5 min). A refusal is an error with a clear message; a failed
re-fetch of a known client keeps the last good document (a transient outage does not lock a client out).
"""

import hashlib
import json
import re
from datetime import timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.api import outbound

from . import registration
from .models import Client

MAX_AGE_SECONDS = 86400
MIN_AGE_SECONDS = 300
# A document that could not be used is not fetched again for this long (a flood of authorization requests naming
# a slow or broken URL costs one fetch, not one each).
FAILURE_BACKOFF_SECONDS = 60
MAX_AGE_RE = re.compile(r"max-age\s*=\s*(\d+)", re.IGNORECASE)
TIMEOUT_SECONDS = 5.0
MAX_BYTES = 64 * 1024

REASONS = {
    "scheme": "it is not an https URL",
    "url": "it is not a valid URL",
    "dns": "its host could not be resolved",
    "private_address": "its host resolves to a private or local address",
    "connect": "the connection failed",
    "timeout": "it did not answer in time",
    "too_large": "the document is larger than 64 KiB",
}


class MetadataDocumentError(Exception):
    """The client's metadata document cannot be used; the message says why, for the person signing in."""


def is_metadata_url(client_id) -> bool:
    return isinstance(client_id, str) and client_id[:8].lower() == "https://"


def check_url(client_id: str):
    parts = urlsplit(client_id)
    if parts.scheme != "https" or not parts.hostname:
        raise MetadataDocumentError("The client_id URL must be an https URL with a host.")
    if parts.fragment or "#" in client_id or parts.username is not None or parts.password is not None:
        raise MetadataDocumentError("The client_id URL may not carry a fragment or user information.")
    if not parts.path or parts.path == "/" or any(seg in (".", "..") for seg in parts.path.split("/")):
        raise MetadataDocumentError("The client_id URL must have a path (without dot segments).")
    if len(client_id) > 255:
        raise MetadataDocumentError("The client_id URL may have at most 255 characters.")


def cache_seconds(cache_control: str) -> int:
    age = MAX_AGE_SECONDS
    lowered = (cache_control or "").lower()
    if "no-store" in lowered or "no-cache" in lowered:
        age = MIN_AGE_SECONDS
    elif match := MAX_AGE_RE.search(lowered):
        age = int(match.group(1))
    return max(MIN_AGE_SECONDS, min(age, MAX_AGE_SECONDS))


def fetch_document(client_id: str) -> tuple[dict, int]:
    check_url(client_id)
    try:
        response = outbound.fetch(
            client_id,
            timeout=TIMEOUT_SECONDS,
            max_bytes=MAX_BYTES,
            allow_private=settings.OAUTH_CIMD_ALLOW_PRIVATE_ADDRESSES,
            extra_ca_file=settings.OAUTH_CIMD_EXTRA_CA_FILE,
            headers={"Accept": "application/json"},
        )
    except outbound.OutboundError as error:
        reason = REASONS.get(error.reason, error.message)
        raise MetadataDocumentError(f"The client's metadata document could not be fetched: {reason}.") from error
    if 300 <= response.status < 400:
        raise MetadataDocumentError(
            f"The client's metadata document could not be fetched: it redirects (HTTP {response.status}), and "
            "redirects are not followed."
        )
    if response.status != 200:
        raise MetadataDocumentError(f"The client's metadata document answered HTTP {response.status}.")
    media_type = response.header("content-type").split(";")[0].strip().lower()
    if media_type != "application/json" and not (
        media_type.startswith("application/") and media_type.endswith("+json")
    ):
        raise MetadataDocumentError("The client's metadata document is not JSON (Content-Type).")
    try:
        document = json.loads(response.body)
    except (ValueError, UnicodeDecodeError) as exc:
        raise MetadataDocumentError("The client's metadata document is not valid JSON.") from exc
    if not isinstance(document, dict):
        raise MetadataDocumentError("The client's metadata document must be a JSON object.")
    return document, cache_seconds(response.header("cache-control"))


def metadata_fields(client_id: str, document: dict) -> dict:
    if document.get("client_id") != client_id:
        raise MetadataDocumentError("The metadata document's client_id is not the URL it was fetched from.")
    if "client_secret" in document or "client_secret_expires_at" in document:
        raise MetadataDocumentError("A metadata document may not carry a client secret.")
    if document.get("token_endpoint_auth_method", "none") != "none":
        raise MetadataDocumentError("A client identified by a metadata document must be public (auth method none).")
    try:
        return registration.validated_metadata(document)
    except registration.RegistrationError as error:
        raise MetadataDocumentError(f"The client's metadata document is invalid: {error.description}") from error


def resolve(client_id: str) -> Client:
    """The Client of a metadata-document `client_id`, fetched on first sight or when its cache expired."""
    existing = Client.objects.filter(client_id=client_id).first()
    if existing is not None:
        if existing.registration_source != Client.RegistrationSource.CIMD:
            return existing  # a registered client with this id; never overwritten by a document
        if existing.cimd_expires_at and existing.cimd_expires_at > timezone.now():
            return existing
    failure_key = "oauth-cimd-failure:" + hashlib.sha256(client_id.encode()).hexdigest()
    if existing is None and (remembered := cache.get(failure_key)):
        raise MetadataDocumentError(remembered)  # failed moments ago: not fetched again before FAILURE_BACKOFF
    try:
        document, max_age = fetch_document(client_id)
        fields = metadata_fields(client_id, document)
    except MetadataDocumentError as error:
        if existing is not None:
            # Keep the last good document through a failed refresh, and try again only after the shortest cache life.
            Client.objects.filter(pk=existing.pk).update(
                cimd_expires_at=timezone.now() + timedelta(seconds=MIN_AGE_SECONDS)
            )
            return existing
        cache.set(failure_key, str(error), FAILURE_BACKOFF_SECONDS)
        raise
    values = {
        "name": fields["client_name"],
        "redirect_uris": " ".join(fields["redirect_uris"]),
        "application_type": fields["application_type"],
        "registered_scope": fields["scope"],
        "client_type": Client.CLIENT_PUBLIC,
        "token_endpoint_auth_method": "none",
        "authorization_grant_type": Client.GRANT_AUTHORIZATION_CODE,
        "registration_source": Client.RegistrationSource.CIMD,
        "cimd_expires_at": timezone.now() + timedelta(seconds=max_age),
        "client_secret": "",
    }
    try:
        with transaction.atomic():
            client, _ = Client.objects.update_or_create(client_id=client_id, defaults=values)
    except IntegrityError:  # a concurrent first sight stored it first
        client = Client.objects.get(client_id=client_id)
    return client
