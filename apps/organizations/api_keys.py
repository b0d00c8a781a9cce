"""API keys as Platform API credentials: the bearer token's prefix finds the key, its HMAC proves it. Registered
as a credential resolver of `apps.api.authentication` when the app is ready."""

from datetime import timedelta

from django.db import connections, router
from django.db.models.query import get_related_populators
from django.utils import timezone

from apps.api.authentication import register_resolver
from apps.api.credentials import Credential
from apps.api.exceptions import Unauthenticated

from .models import ApiKey

LAST_USED_RESOLUTION = timedelta(minutes=1)


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


def register() -> None:
    register_resolver(authenticate_api_key)
