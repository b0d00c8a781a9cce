"""Discovery documents (RFC 8414, RFC 9728) and the OpenAPI document's `platformOAuth` scheme name the served URLs."""

import pytest
from django.test import Client as HttpClient

from apps.api.scopes import ALL_SCOPES
from apps.oauth.resources import protected_resource_metadata_url, www_authenticate_header

pytestmark = pytest.mark.django_db


def test_authorization_server_metadata(settings):
    response = HttpClient().get("/.well-known/oauth-authorization-server")
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == "*"
    body = response.json()
    base = settings.BASE_URL
    assert body["issuer"] == base
    assert body["authorization_endpoint"] == f"{settings.AUTH_URL}/oauth/authorize"
    assert body["token_endpoint"] == f"{base}/v1/mcp/oauth/token"
    assert body["registration_endpoint"] == f"{base}/v1/mcp/oauth/register"
    assert body["response_types_supported"] == ["code"]
    assert body["grant_types_supported"] == ["authorization_code", "refresh_token"]
    assert body["code_challenge_methods_supported"] == ["S256"]
    assert body["token_endpoint_auth_methods_supported"] == ["none", "client_secret_post"]
    assert body["scopes_supported"] == ["*", *ALL_SCOPES]
    assert body["authorization_response_iss_parameter_supported"] is True
    assert body["client_id_metadata_document_supported"] is True


@pytest.mark.parametrize(
    "path",
    [
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-protected-resource/admin",
        "/.well-known/oauth-protected-resource/mcp/admin",
        "/mcp/.well-known/oauth-protected-resource",
        "/mcp/.well-known/oauth-protected-resource/admin",
    ],
)
def test_protected_resource_metadata(path, settings):
    response = HttpClient().get(path)
    assert response.status_code == 200
    body = response.json()
    assert body["resource"] == f"{settings.MCP_URL}/admin"
    assert body["authorization_servers"] == [settings.BASE_URL]
    assert body["bearer_methods_supported"] == ["header"]
    assert body["scopes_supported"][0] == "*"
    assert body["resource_name"]


def test_the_platform_api_has_its_own_resource_document(settings):
    body = HttpClient().get("/.well-known/oauth-protected-resource/v1/platform").json()
    assert body["resource"] == f"{settings.BASE_URL}/v1/platform"


def test_unknown_resource_paths_and_methods():
    assert HttpClient().get("/.well-known/oauth-protected-resource/elsewhere").status_code == 404
    assert HttpClient().post("/.well-known/oauth-authorization-server").status_code == 405


def test_the_mcp_challenge_names_the_metadata_url(settings):
    assert protected_resource_metadata_url() == f"{settings.MCP_URL}/.well-known/oauth-protected-resource"
    assert www_authenticate_header() == f'Bearer resource_metadata="{protected_resource_metadata_url()}"'
    # The URL it names is served.
    path = protected_resource_metadata_url().removeprefix(settings.BASE_URL)
    assert HttpClient().get(path).status_code == 200


def test_the_openapi_scheme_points_at_the_served_endpoints():
    document = HttpClient().get("/v1/openapi.json").json()
    flow = document["components"]["securitySchemes"]["platformOAuth"]["flows"]["authorizationCode"]
    metadata = HttpClient().get("/.well-known/oauth-authorization-server").json()
    assert flow["authorizationUrl"] == metadata["authorization_endpoint"]
    assert flow["tokenUrl"] == flow["refreshUrl"] == metadata["token_endpoint"]
    assert set(flow["scopes"]) == set(metadata["scopes_supported"])
    assert flow["scopes"]["classes:read"] == "View classes, class types, schedules and progression tracks"
