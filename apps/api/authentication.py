"""Bearer authentication for the Platform API and MCP: customer API keys and OAuth access tokens."""

from datetime import timedelta

from django.db import connections, router
from django.db.models.query import get_related_populators
from django.utils import timezone
from rest_framework.authentication import BaseAuthentication, get_authorization_header

from apps.organizations.models import ApiKey

from .credentials import Credential
from .exceptions import OrganizationNotActive, PlanFeatureLocked, Unauthenticated

LAST_USED_RESOLUTION = timedelta(minutes=1)


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


class KeyLookup:
    """`ApiKey` + its organization by prefix in one query, with the SQL compiled once per database connection.

    Compiling the ORM query (select_related over two wide tables) cost as much as running it; this is the same
    query and the same model instances (DB converters applied, organization cached on the key).
    """

    PLACEHOLDER = "__prefix__"

    def __init__(self, connection):
        queryset = ApiKey.objects.select_related("organization").filter(prefix=self.PLACEHOLDER).order_by()
        self.compiler = queryset.query.get_compiler(connection=connection)
        self.sql, params = self.compiler.as_sql()
        if list(params) != [self.PLACEHOLDER]:
            raise RuntimeError("unexpected parameters in the API key lookup")
        klass_info, select = self.compiler.klass_info, self.compiler.select
        self.start, self.end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
        self.init_list = [column[0].target.attname for column in select[self.start : self.end]]
        self.populators = get_related_populators(klass_info, select, connection.alias)
        self.alias = connection.alias
        # The column converters (JSON decoding, time zones) are fixed for this SQL: resolve them once as well.
        self.converters = self.compiler.get_converters([column[0] for column in select[: self.compiler.col_count]])

    def fetch(self, connection, prefix: str) -> ApiKey | None:
        with connection.cursor() as cursor:
            cursor.execute(self.sql, [prefix])
            rows = cursor.fetchmany(2)
        if self.converters:
            rows = self.compiler.apply_converters(rows, self.converters)
        for row in rows:
            key = ApiKey.from_db(self.alias, self.init_list, row[self.start : self.end])
            for populator in self.populators:
                populator.populate(row, key)
            return key
        return None

    @classmethod
    def find(cls, prefix: str) -> ApiKey | None:
        connection = connections[router.db_for_read(ApiKey)]
        lookup = getattr(connection, "_api_key_lookup", None)
        if lookup is None:
            lookup = connection._api_key_lookup = cls(connection)
        return lookup.fetch(connection, prefix)


def authenticate_api_key(token: str, resource: str | None = None) -> Credential | None:
    """The credential for an API key token; None when the token is not an API key at all."""
    prefix = ApiKey.split_token(token)
    if prefix is None:
        return None
    # Prefixes are hex: anything else (a NUL, which PostgreSQL refuses in a query, included) is unknown, unlooked-up.
    if not (prefix.isascii() and prefix.isalnum()):
        raise Unauthenticated("The API key is unknown, expired or revoked.")
    key = KeyLookup.find(prefix)
    now = timezone.now()
    if key is None or not key.matches(token) or key.is_revoked or key.is_expired(now):
        raise Unauthenticated("The API key is unknown, expired or revoked.")
    if key.last_used_at is None or now - key.last_used_at >= LAST_USED_RESOLUTION:
        ApiKey.objects.filter(pk=key.pk).update(last_used_at=now)
    return Credential.build("api_key", key.pk, key.name, key.organization, key.scopes)


# Each resolver takes a bearer token and the resource it is used at (OAuth tokens are bound to one, RFC 8707;
# None is the Platform API) and returns a Credential, None (not its kind) or raises Unauthenticated. The OAuth
# access token resolver registers itself when its app is ready (apps.oauth.authentication).
CREDENTIAL_RESOLVERS = [authenticate_api_key]


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
