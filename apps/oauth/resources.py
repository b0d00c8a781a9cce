"""The protected resources OAuth tokens are issued for (RFC 8707) and where their metadata lives (RFC 9728).

Two resources exist: the MCP server `{MCP_URL}/admin` (the default, also accepted by the Platform API) and the
Platform API `{BASE_URL}/v1/platform` (accepted there only). A token is refused at any other resource.
"""

import posixpath
from urllib.parse import urlsplit

from django.conf import settings
from oauth2_provider.oauth2_validators import validate_resource_as_url_prefix

WELL_KNOWN_RESOURCE = "/.well-known/oauth-protected-resource"
WELL_KNOWN_SERVER = "/.well-known/oauth-authorization-server"


def mcp_resource() -> str:
    """The MCP server's resource identifier, `{MCP_URL}/admin` (the default resource of a token)."""
    return f"{settings.MCP_URL}/admin"


def platform_resource() -> str:
    """The Platform API's resource identifier, `{BASE_URL}/v1/platform`."""
    return f"{settings.BASE_URL}/v1/platform"


def issuer() -> str:
    """The authorization server's issuer identifier (RFC 8414 `issuer`, RFC 9207 `iss`): `{BASE_URL}`."""
    return settings.BASE_URL


def protected_resource_metadata_url() -> str:
    """The URL MCP announces in `WWW-Authenticate: Bearer resource_metadata="…"` on a 401."""
    return f"{settings.MCP_URL}{WELL_KNOWN_RESOURCE}"


def www_authenticate_header(error: str | None = None) -> str:
    """The `WWW-Authenticate` value of a 401 from the MCP server (RFC 9728 §5.1, RFC 6750 §3)."""
    value = f'Bearer resource_metadata="{protected_resource_metadata_url()}"'
    if error:
        value += f', error="{error}"'
    return value


def normalize(uri: str) -> str:
    parts = urlsplit(uri)
    path = posixpath.normpath(parts.path) if parts.path else ""
    path = "" if path in ("/", ".") else path.rstrip("/")
    return f"{parts.scheme.lower()}://{(parts.netloc or '').lower()}{path}"


def known_resource(uri: str) -> bool:
    """A resource a client may ask a token for: the MCP server (or a narrower surface of it) or the Platform API."""
    if not isinstance(uri, str) or "#" in uri or "@" in uri.split("?")[0]:
        return False
    return any(validate_resource_as_url_prefix(uri, [base]) for base in (mcp_resource(), platform_resource()))


def token_allowed_at(audiences: list[str], resource: str) -> bool:
    """Whether a token bound to `audiences` may be used at `resource` (the surface serving the request).

    The Platform API also accepts tokens issued for the MCP server (the default resource), so one consent covers
    both ways of calling the same API."""
    if not audiences:
        return False
    if validate_resource_as_url_prefix(resource, audiences):
        return True
    at_platform = validate_resource_as_url_prefix(resource, [platform_resource()])
    return at_platform and any(normalize(a) == normalize(mcp_resource()) for a in audiences)
