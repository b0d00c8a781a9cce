"""Routes of the authorization server; included once from config/urls.py."""

from urllib.parse import urlsplit

from django.conf import settings
from django.urls import path, re_path

from . import endpoints, metadata, pages

MCP_PREFIX = urlsplit(settings.MCP_URL).path.strip("/")
AUTH_PREFIX = urlsplit(settings.AUTH_URL).path.strip("/")

well_known_urlpatterns = [
    path(".well-known/oauth-authorization-server", metadata.authorization_server_view, name="oauth-server-metadata"),
    path(".well-known/oauth-protected-resource", metadata.protected_resource_view, name="oauth-resource-metadata"),
    re_path(r"^\.well-known/oauth-protected-resource/(?P<suffix>.+)$", metadata.protected_resource_view),
]
if MCP_PREFIX:
    # `{MCP_URL}/.well-known/oauth-protected-resource`, the URL the MCP server's 401 names.
    well_known_urlpatterns += [
        path(f"{MCP_PREFIX}/.well-known/oauth-protected-resource", metadata.protected_resource_view),
        re_path(
            rf"^{MCP_PREFIX}/\.well-known/oauth-protected-resource/(?P<suffix>.+)$", metadata.protected_resource_view
        ),
        path(f"{MCP_PREFIX}/.well-known/oauth-authorization-server", metadata.authorization_server_view),
    ]

endpoint_urlpatterns = [
    path("v1/mcp/oauth/register", endpoints.register_view, name="oauth-register"),
    path("v1/mcp/oauth/token", endpoints.token_view, name="oauth-token"),
    path("v1/mcp/oauth/revoke", endpoints.revoke_view, name="oauth-revoke"),
]

authorize_urlpatterns = [
    path(
        f"{AUTH_PREFIX}/oauth/authorize" if AUTH_PREFIX else "oauth/authorize",
        pages.AuthorizeView.as_view(),
        name="oauth-authorize",
    ),
]

urlpatterns = well_known_urlpatterns + endpoint_urlpatterns + authorize_urlpatterns
