"""Bearer authentication for the Platform API and MCP: customer API keys and OAuth access tokens."""

from rest_framework.authentication import BaseAuthentication, get_authorization_header

from .credentials import Credential
from .exceptions import OrganizationNotActive, PlanFeatureLocked, Unauthenticated


def bearer_token(request) -> str | None:
    header = get_authorization_header(request).decode("latin-1")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthenticated("The Authorization header must be `Bearer <credential>`.")
    return token.strip()


def check_organization(organization):
    """The organization lock, applied to every credential kind after it is identified."""
    if not organization.is_active:
        raise OrganizationNotActive()
    if organization.api_locked:
        raise PlanFeatureLocked()


# Each resolver takes a bearer token and the resource it is used at (OAuth tokens are bound to one, RFC 8707;
# None is the Platform API) and returns a Credential, None (not its kind) or raises Unauthenticated. The apps that
# own a kind of credential register theirs when they are ready (API keys: apps.organizations.api_keys; OAuth access
# tokens: apps.oauth.authentication), so this plumbing imports no domain app.
CREDENTIAL_RESOLVERS = []


def register_resolver(resolver):
    if resolver not in CREDENTIAL_RESOLVERS:
        CREDENTIAL_RESOLVERS.append(resolver)


def resolve_credential(token: str, resource: str | None = None) -> Credential:
    for resolver in CREDENTIAL_RESOLVERS:
        credential = resolver(token, resource)
        if credential is not None:
            check_organization(credential.organization)
            return credential
    raise Unauthenticated("The bearer credential is not recognised.")


def request_resource(request) -> str | None:
    """The protected resource a request is served by: the view's `oauth_resource` (the MCP server declares
    `apps.oauth.resources.mcp_resource()`), else None, the Platform API."""
    view = (getattr(request, "parser_context", None) or {}).get("view")
    return getattr(view, "oauth_resource", None)


class ApiKeyAuthentication(BaseAuthentication):
    """Any bearer credential (API key or OAuth access token): sets `request.auth` to a Credential and
    `request.organization`; a missing credential is a 401."""

    def authenticate(self, request):
        # A request the MCP server dispatches to a view carries the credential it already authenticated (and
        # checked for the organization lock) moments ago: the same one, not looked up twice.
        credential = getattr(request._request, "authenticated_credential", None)
        if credential is None:
            token = bearer_token(request)
            if token is None:
                raise Unauthenticated()
            credential = resolve_credential(token, request_resource(request))
        request.organization = credential.organization
        request._request.organization = credential.organization
        request._request.credential = credential
        return (None, credential)

    def authenticate_header(self, request):
        return "Bearer"
