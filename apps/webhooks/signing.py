"""Standard Webhooks signing: `whsec_<base64 key>` secrets and `v1,<base64 HMAC-SHA256>` signatures of
`<webhook-id>.<webhook-timestamp>.<body>`."""

import base64
import hashlib
import hmac
import secrets

PREFIX = "whsec_"


def new_secret() -> str:
    return PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


def sign(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    key = base64.b64decode(secret.removeprefix(PREFIX))
    digest = hmac.new(key, f"{message_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def signature_header(secrets_: list[str], message_id: str, timestamp: int, body: bytes) -> str:
    """One signature per live secret, the newest first, space-separated."""
    return " ".join(sign(s, message_id, timestamp, body) for s in secrets_)
