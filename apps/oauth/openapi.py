"""The OAuth endpoints that answer JSON, in the served OpenAPI document (a drf-spectacular postprocessing hook:
they are plain Django views). docs/oauth.md explains the flow; this is the machine-readable contract that
tests/test_contract_fuzz.py holds them to: registration, token, revocation and the two discovery documents."""

from .models import ApplicationType
from .redirects import MAX_REDIRECT_URIS
from .registration import AUTH_METHODS, GRANT_TYPES, MAX_CLIENT_NAME, MAX_SCOPE_LENGTH

TAGS = ["oauth"]
STRING_LIST = {"type": "array", "items": {"type": "string"}}
OAUTH_ERROR = {
    "type": "object",
    "description": "An OAuth error (RFC 6749 §5.2, RFC 7591 §3.2.2).",
    "required": ["error", "error_description"],
    "properties": {
        "error": {"type": "string", "description": "`invalid_request`, `invalid_grant`, `invalid_client_metadata`, …"},
        "error_description": {"type": "string"},
    },
}
CLIENT_METADATA = {
    "type": "object",
    "description": "RFC 7591 client metadata; docs/oauth.md §2 has the rules for each field.",
    "properties": {
        "redirect_uris": {**STRING_LIST, "maxItems": MAX_REDIRECT_URIS},
        "client_name": {"type": "string", "maxLength": MAX_CLIENT_NAME},
        "grant_types": {"type": "array", "items": {"type": "string", "enum": list(GRANT_TYPES)}},
        "response_types": {"type": "array", "items": {"type": "string", "enum": ["code"]}},
        "token_endpoint_auth_method": {"type": "string", "enum": list(AUTH_METHODS)},
        "application_type": {"type": "string", "enum": list(ApplicationType.values)},
        "scope": {"type": "string", "maxLength": MAX_SCOPE_LENGTH, "description": "Space-separated scope names."},
    },
}
REGISTERED_CLIENT = {
    "type": "object",
    "required": [
        "client_id",
        "client_id_issued_at",
        "redirect_uris",
        "grant_types",
        "response_types",
        "token_endpoint_auth_method",
        "application_type",
    ],
    "properties": {
        "client_id": {"type": "string"},
        "client_id_issued_at": {"type": "integer"},
        "client_secret": {"type": "string", "description": "Only for `client_secret_post` clients, shown once."},
        "client_secret_expires_at": {"type": "integer", "description": "0: the secret does not expire."},
        **CLIENT_METADATA["properties"],
    },
}
TOKEN_REQUEST = {
    "type": "object",
    "required": ["grant_type"],
    "properties": {
        "grant_type": {"type": "string", "description": "`authorization_code` or `refresh_token`."},
        "code": {"type": "string"},
        "redirect_uri": {"type": "string"},
        "code_verifier": {"type": "string", "description": "The PKCE verifier (S256)."},
        "refresh_token": {"type": "string"},
        "client_id": {"type": "string"},
        "client_secret": {"type": "string"},
        "resource": {"type": "string", "description": "RFC 8707 resource indicator."},
        "scope": {"type": "string"},
    },
}
TOKENS = {
    "type": "object",
    "required": ["access_token", "token_type", "expires_in", "scope"],
    "properties": {
        "access_token": {"type": "string"},
        "token_type": {"type": "string", "enum": ["Bearer"]},
        "expires_in": {"type": "integer"},
        "refresh_token": {"type": "string"},
        "scope": {"type": "string"},
    },
}
REVOCATION_REQUEST = {
    "type": "object",
    "required": ["token"],
    "properties": {
        "token": {"type": "string"},
        "token_type_hint": {"type": "string", "enum": ["access_token", "refresh_token"]},
        "client_id": {"type": "string"},
        "client_secret": {"type": "string"},
    },
}
SERVER_METADATA = {
    "type": "object",
    "description": "RFC 8414 authorization server metadata.",
    "required": ["issuer", "authorization_endpoint", "token_endpoint", "response_types_supported"],
    "properties": {
        **{
            name: {"type": "string"}
            for name in (
                "issuer",
                "authorization_endpoint",
                "token_endpoint",
                "registration_endpoint",
                "revocation_endpoint",
                "service_documentation",
            )
        },
        **{
            name: STRING_LIST
            for name in (
                "response_types_supported",
                "response_modes_supported",
                "grant_types_supported",
                "code_challenge_methods_supported",
                "token_endpoint_auth_methods_supported",
                "revocation_endpoint_auth_methods_supported",
                "scopes_supported",
            )
        },
        "authorization_response_iss_parameter_supported": {"type": "boolean"},
        "client_id_metadata_document_supported": {"type": "boolean"},
    },
}
RESOURCE_METADATA = {
    "type": "object",
    "description": "RFC 9728 protected resource metadata.",
    "required": ["resource", "authorization_servers"],
    "properties": {
        "resource": {"type": "string"},
        "authorization_servers": STRING_LIST,
        "scopes_supported": STRING_LIST,
        "bearer_methods_supported": STRING_LIST,
        "resource_name": {"type": "string"},
        "resource_documentation": {"type": "string"},
    },
}
SCHEMAS = {
    "OAuthError": OAUTH_ERROR,
    "OAuthClientMetadata": CLIENT_METADATA,
    "OAuthRegisteredClient": REGISTERED_CLIENT,
    "OAuthTokenRequest": TOKEN_REQUEST,
    "OAuthTokens": TOKENS,
    "OAuthRevocationRequest": REVOCATION_REQUEST,
    "OAuthServerMetadata": SERVER_METADATA,
    "OAuthResourceMetadata": RESOURCE_METADATA,
}


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(name: str, description: str, headers: dict | None = None) -> dict:
    response = {"description": description, "content": {"application/json": {"schema": _ref(name)}}}
    if headers:
        response["headers"] = headers
    return response


RETRY_AFTER = {"Retry-After": {"description": "Seconds until the address may retry.", "schema": {"type": "string"}}}
POST_ERRORS = {
    "400": _json("OAuthError", "The request is malformed or refused (the `error` code says why)."),
    "413": _json("OAuthError", "The body is larger than 64 KiB."),
    "429": _json("OAuthError", "Too many requests from this address (20 a minute).", RETRY_AFTER),
}


def _body(name: str) -> dict:
    """Form encoding (the RFCs') or JSON, same fields."""
    return {
        "required": True,
        "content": {
            "application/x-www-form-urlencoded": {"schema": _ref(name)},
            "application/json": {"schema": _ref(name)},
        },
    }


def _operation(operation_id: str, summary: str, description: str, responses: dict, body: str | None = None) -> dict:
    operation = {
        "operationId": operation_id,
        "summary": summary,
        "description": description,
        "tags": TAGS,
        "security": [],
        "responses": responses,
    }
    if body:
        operation["requestBody"] = _body(body)
    return operation


PATHS = {
    "/.well-known/oauth-authorization-server": {
        "get": _operation(
            "oauth_server_metadata",
            "Authorization server metadata",
            "RFC 8414 discovery document of the authorization server. Public, cacheable for 5 minutes.",
            {"200": _json("OAuthServerMetadata", "OK")},
        )
    },
    "/.well-known/oauth-protected-resource": {
        "get": _operation(
            "oauth_resource_metadata",
            "Protected resource metadata",
            "RFC 9728 discovery document of the MCP server (also served under the resource's own path, "
            "`/.well-known/oauth-protected-resource/<path>`). Public, cacheable for 5 minutes.",
            {"200": _json("OAuthResourceMetadata", "OK")},
        )
    },
    "/v1/mcp/oauth/register": {
        "post": _operation(
            "oauth_register",
            "Register a client",
            "RFC 7591 dynamic client registration; no credential. A refused registration writes nothing.",
            {"201": _json("OAuthRegisteredClient", "Registered"), **POST_ERRORS},
            body="OAuthClientMetadata",
        )
    },
    "/v1/mcp/oauth/token": {
        "post": _operation(
            "oauth_token",
            "Exchange a code or a refresh token",
            "RFC 6749 token endpoint: the `authorization_code` grant (with the PKCE verifier) or the `refresh_token` "
            "grant (refresh tokens rotate on every use).",
            {
                "200": _json("OAuthTokens", "The access token and the new refresh token"),
                **POST_ERRORS,
                "401": _json("OAuthError", "The client is unknown, or its authentication failed."),
            },
            body="OAuthTokenRequest",
        )
    },
    "/v1/mcp/oauth/revoke": {
        "post": _operation(
            "oauth_revoke",
            "Revoke a token",
            "RFC 7009 revocation of an access or refresh token with the client's `client_id`: the whole grant is "
            "revoked. An unknown token is answered like a revoked one (200).",
            {
                "200": {
                    "description": "Revoked (or unknown)",
                    "content": {"application/json": {"schema": {"type": "object", "additionalProperties": False}}},
                },
                **POST_ERRORS,
                "401": _json("OAuthError", "The client is unknown, or its authentication failed."),
            },
            body="OAuthRevocationRequest",
        )
    },
}


def add_oauth_operations(result, generator, request, public):
    """drf-spectacular postprocessing hook (config/settings.py)."""
    result.setdefault("paths", {}).update(PATHS)
    result.setdefault("components", {}).setdefault("schemas", {}).update(SCHEMAS)
    return result
