"""Dynamic client registration (RFC 7591): the metadata a client may register, validated once for registrations
and for Client ID Metadata Documents alike."""

from django.db import transaction
from oauth2_provider.generators import generate_client_secret

from .models import ApplicationType, Client
from .redirects import MAX_REDIRECT_URIS, redirect_uri_problem
from .scopes import OAUTH_SCOPES

MAX_CLIENT_NAME = 200
MAX_SCOPE_LENGTH = 4000
AUTH_METHODS = ("none", "client_secret_post")
GRANT_TYPES = ("authorization_code", "refresh_token")


class RegistrationError(Exception):
    """An RFC 7591 error: `invalid_redirect_uri` or `invalid_client_metadata`, with a description."""

    def __init__(self, error: str, description: str):
        super().__init__(description)
        self.error = error
        self.description = description


def _metadata_error(description):
    return RegistrationError("invalid_client_metadata", description)


def _string_list(data, name, default):
    value = data.get(name, default)
    if isinstance(value, str):  # a form body, or a lenient client: space-separated
        value = value.split()
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise _metadata_error(f"{name} must be an array of strings.")
    return value


def validated_metadata(data: dict) -> dict:
    """The client metadata of a registration body (or metadata document), or RegistrationError."""
    application_type = data.get("application_type", ApplicationType.WEB)
    if application_type not in ApplicationType.values:
        raise _metadata_error("application_type must be web or native.")

    if "redirect_uris" not in data:
        raise RegistrationError("invalid_redirect_uri", "redirect_uris is required.")
    redirect_uris = data["redirect_uris"]
    if isinstance(redirect_uris, str):
        redirect_uris = redirect_uris.split()
    if not isinstance(redirect_uris, list) or not redirect_uris:
        raise RegistrationError("invalid_redirect_uri", "redirect_uris must be a non-empty array of URIs.")
    if len(redirect_uris) > MAX_REDIRECT_URIS:
        raise RegistrationError("invalid_redirect_uri", f"At most {MAX_REDIRECT_URIS} redirect URIs may be registered.")
    for uri in redirect_uris:
        problem = redirect_uri_problem(uri, application_type)
        if problem:
            raise RegistrationError("invalid_redirect_uri", problem)
    redirect_uris = list(dict.fromkeys(redirect_uris))

    client_name = data.get("client_name", "")
    if not isinstance(client_name, str):
        raise _metadata_error("client_name must be a string.")
    client_name = " ".join(client_name.split())
    if len(client_name) > MAX_CLIENT_NAME or "\x00" in client_name:
        raise _metadata_error(f"client_name may have at most {MAX_CLIENT_NAME} characters.")

    grant_types = _string_list(data, "grant_types", list(GRANT_TYPES))
    unknown = [g for g in grant_types if g not in GRANT_TYPES]
    if unknown:
        raise _metadata_error(
            f"Unsupported grant type {unknown[0]!r}: only authorization_code and refresh_token are offered."
        )
    if "authorization_code" not in grant_types:
        raise _metadata_error("grant_types must include authorization_code.")

    response_types = _string_list(data, "response_types", ["code"])
    if response_types != ["code"]:
        raise _metadata_error('response_types must be ["code"]: only the authorization code flow is offered.')

    auth_method = data.get("token_endpoint_auth_method", "none")
    if auth_method not in AUTH_METHODS:
        raise _metadata_error("token_endpoint_auth_method must be none or client_secret_post.")

    scope = data.get("scope", "")
    if not isinstance(scope, str) or len(scope) > MAX_SCOPE_LENGTH:
        raise _metadata_error("scope must be a string of space-separated scope names.")
    unknown_scopes = [s for s in scope.split() if s not in OAUTH_SCOPES]
    if unknown_scopes:
        raise _metadata_error(f"Unknown scope {unknown_scopes[0]!r}.")

    return {
        "redirect_uris": redirect_uris,
        "client_name": client_name,
        "grant_types": list(dict.fromkeys(grant_types)),
        "response_types": ["code"],
        "token_endpoint_auth_method": auth_method,
        "application_type": application_type,
        "scope": " ".join(dict.fromkeys(scope.split())),
    }


@transaction.atomic
def register(data: dict) -> dict:
    """Register a client from RFC 7591 metadata; the 201 body (with `client_secret` for confidential clients)."""
    metadata = validated_metadata(data)
    confidential = metadata["token_endpoint_auth_method"] == "client_secret_post"
    secret = generate_client_secret() if confidential else ""
    client = Client(
        name=metadata["client_name"],
        redirect_uris=" ".join(metadata["redirect_uris"]),
        client_type=Client.CLIENT_CONFIDENTIAL if confidential else Client.CLIENT_PUBLIC,
        authorization_grant_type=Client.GRANT_AUTHORIZATION_CODE,
        client_secret=secret,
        application_type=metadata["application_type"],
        token_endpoint_auth_method=metadata["token_endpoint_auth_method"],
        registered_scope=metadata["scope"],
        registration_source=Client.RegistrationSource.DCR,
    )
    client.save()
    body = {"client_id": client.client_id, "client_id_issued_at": int(client.created.timestamp())}
    if confidential:
        body["client_secret"] = secret
        body["client_secret_expires_at"] = 0
    body.update({key: value for key, value in metadata.items() if value or key != "scope"})
    if not body.get("client_name"):
        body.pop("client_name", None)
    return body
