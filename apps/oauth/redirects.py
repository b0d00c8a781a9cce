"""Which redirect URIs a client may register (RFC 8252 for native apps, OAuth 2.1 §2.3.1)."""

import ipaddress
import re
from urllib.parse import urlsplit

LOOPBACK_HOSTS = {"localhost", "127.0.0.1", "::1"}
SCHEME_RE = re.compile(r"^[a-z][a-z0-9+.-]*$")
# Schemes that never name an app: a redirect to them would run code or read files in the browser.
FORBIDDEN_SCHEMES = {"javascript", "data", "vbscript", "file", "about", "blob", "filesystem", "ftp", "ws", "wss"}
MAX_REDIRECT_URIS = 10
MAX_URI_LENGTH = 2000


def is_loopback(host: str | None) -> bool:
    if not host:
        return False
    if host in LOOPBACK_HOSTS:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def redirect_uri_problem(uri, application_type: str) -> str | None:
    """Why `uri` cannot be registered by a client of `application_type` (web or native), or None."""
    if not isinstance(uri, str) or not uri:
        return "Each redirect URI must be a non-empty string."
    if len(uri) > MAX_URI_LENGTH:
        return f"A redirect URI may have at most {MAX_URI_LENGTH} characters."
    if any(ord(c) < 0x21 or ord(c) == 0x7F for c in uri):
        return "A redirect URI may not contain spaces or control characters."
    try:
        parts = urlsplit(uri)
        host = parts.hostname
        parts.port  # noqa: B018 (raises on a bad port)
    except ValueError:
        return f"{uri} is not a valid URI."
    scheme = parts.scheme.lower()
    if not scheme or not SCHEME_RE.match(scheme):
        return f"{uri} is not an absolute URI."
    if "#" in uri:
        return "A redirect URI may not have a fragment."
    if parts.username is not None or parts.password is not None:
        return "A redirect URI may not carry user information."
    if scheme == "https":
        if not host:
            return f"{uri} has no host."
        return None
    if scheme == "http":
        if is_loopback(host):
            return None
        return f"{uri}: plain http is allowed for loopback addresses only (127.0.0.1, [::1], localhost); use https."
    if application_type != "native":
        return f"{uri}: a web client's redirect URIs use https (or http on a loopback address)."
    if scheme in FORBIDDEN_SCHEMES:
        return f"{uri}: the {scheme} scheme cannot be a redirect URI."
    return None


def allowed_schemes(client) -> list[str]:
    schemes = ["https", "http"]
    if getattr(client, "application_type", "web") == "native":
        for uri in (client.redirect_uris or "").split():
            scheme = urlsplit(uri).scheme.lower()
            if scheme and scheme not in schemes and scheme not in FORBIDDEN_SCHEMES:
                schemes.append(scheme)
    return schemes
