"""Discovery documents: RFC 8414 authorization server metadata and RFC 9728 protected resource metadata."""

from urllib.parse import urlsplit

from django.conf import settings
from django.http import JsonResponse
from django.views.decorators.http import require_safe

from .resources import issuer, mcp_resource, platform_resource
from .scopes import OAUTH_SCOPES

CACHE_SECONDS = 300


def authorization_endpoint() -> str:
    return f"{settings.AUTH_URL}/oauth/authorize"


def token_endpoint() -> str:
    return f"{settings.BASE_URL}/v1/mcp/oauth/token"


def registration_endpoint() -> str:
    return f"{settings.BASE_URL}/v1/mcp/oauth/register"


def revocation_endpoint() -> str:
    return f"{settings.BASE_URL}/v1/mcp/oauth/revoke"


def authorization_server_metadata() -> dict:
    return {
        "issuer": issuer(),
        "authorization_endpoint": authorization_endpoint(),
        "token_endpoint": token_endpoint(),
        "registration_endpoint": registration_endpoint(),
        "revocation_endpoint": revocation_endpoint(),
        "response_types_supported": ["code"],
        "response_modes_supported": ["query"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["none", "client_secret_post"],
        "revocation_endpoint_auth_methods_supported": ["none", "client_secret_post"],
        "scopes_supported": list(OAUTH_SCOPES),
        "authorization_response_iss_parameter_supported": True,
        "client_id_metadata_document_supported": True,
        "service_documentation": f"{settings.BASE_URL}/v1/docs",
    }


def protected_resource_metadata(resource: str | None = None) -> dict:
    return {
        "resource": resource or mcp_resource(),
        "authorization_servers": [issuer()],
        "scopes_supported": list(OAUTH_SCOPES),
        "bearer_methods_supported": ["header"],
        "resource_name": "Platform API (MCP server)",
        "resource_documentation": f"{settings.BASE_URL}/v1/docs",
    }


def _json(data, status=200) -> JsonResponse:
    response = JsonResponse(data, status=status)
    # Browser-based clients (the MCP Inspector) read discovery documents cross-origin.
    response["Access-Control-Allow-Origin"] = "*"
    if status == 200:
        response["Cache-Control"] = f"public, max-age={CACHE_SECONDS}"
    return response


@require_safe
def authorization_server_view(request):
    return _json(authorization_server_metadata())


def _resource_for_suffix(suffix: str) -> str | None:
    """RFC 9728 §3.1: the metadata of resource `https://host/<path>` is at `/.well-known/oauth-protected-resource/
    <path>`. The MCP server's is served for its path (`mcp/admin` by default, `admin` on a host of its own) and the
    narrower read-only surface; the Platform API's for `v1/platform`."""
    suffix = suffix.strip("/")
    mcp_path = urlsplit(settings.MCP_URL).path.strip("/")
    mcp_paths = {"admin", "admin/readonly"}
    if mcp_path:
        mcp_paths |= {f"{mcp_path}/admin", f"{mcp_path}/admin/readonly"}
    if suffix in mcp_paths:
        return mcp_resource()
    if suffix == "v1/platform":
        return platform_resource()
    return None


@require_safe
def protected_resource_view(request, suffix: str = ""):
    resource = _resource_for_suffix(suffix) if suffix else mcp_resource()
    if resource is None:
        return _json({"error": "not_found", "error_description": "No protected resource is served there."}, 404)
    return _json(protected_resource_metadata(resource))
