"""API keys as Platform API credentials: the bearer token's prefix finds the key, its HMAC proves it. Registered
as a credential resolver of `apps.api.authentication` when the app is ready."""

from datetime import timedelta

from django.db import connections, router
from django.utils import timezone

from apps.api.authentication import register_resolver
from apps.api.credentials import Credential
from apps.api.exceptions import Unauthenticated
from apps.api.pagecache import writes_no_page_shows

from .models import ApiKey, Organization

LAST_USED_RESOLUTION = timedelta(minutes=1)


class KeyLookup:
    """`ApiKey` + its organization by prefix in one query, its SQL written once per database from the models'
    `_meta`, each column converted as the ORM converts it (the backend's converters, e.g. SQLite's text
    date-times, then the field's own, e.g. JSON) and the rows turned into instances by `Model.from_db`.

    Compiling the ORM query (select_related over two wide tables) cost as much as running it on every request;
    this is the same query and the same model instances (organization cached on the key), through public APIs only.
    """

    _by_alias: dict[str, "KeyLookup"] = {}

    def __init__(self, connection):
        quote = connection.ops.quote_name
        self.key_fields = ApiKey._meta.concrete_fields
        self.organization_fields = Organization._meta.concrete_fields
        columns = [f"k.{quote(f.column)}" for f in self.key_fields]
        columns += [f"o.{quote(f.column)}" for f in self.organization_fields]
        organization_fk = ApiKey._meta.get_field("organization")
        self.sql = (
            f"SELECT {', '.join(columns)} FROM {quote(ApiKey._meta.db_table)} k "
            f"INNER JOIN {quote(Organization._meta.db_table)} o "
            f"ON o.{quote(Organization._meta.pk.column)} = k.{quote(organization_fk.column)} "
            f"WHERE k.{quote(ApiKey._meta.get_field('prefix').column)} = %s LIMIT 1"
        )
        self.converters = []
        for i, column in enumerate(
            [*(f.get_col("k") for f in self.key_fields), *(f.get_col("o") for f in self.organization_fields)]
        ):
            for convert in connection.ops.get_db_converters(column) + column.get_db_converters(connection):
                self.converters.append((i, convert, column))
        self.key_attnames = [f.attname for f in self.key_fields]
        self.organization_attnames = [f.attname for f in self.organization_fields]
        self.alias = connection.alias

    def fetch(self, connection, prefix: str) -> ApiKey | None:
        with connection.cursor() as cursor:
            cursor.execute(self.sql, [prefix])
            row = cursor.fetchone()
        if row is None:
            return None
        row = list(row)
        for i, convert, column in self.converters:
            row[i] = convert(row[i], column, connection)
        split = len(self.key_attnames)
        key = ApiKey.from_db(self.alias, self.key_attnames, row[:split])
        key.organization = Organization.from_db(self.alias, self.organization_attnames, row[split:])
        return key

    @classmethod
    def find(cls, prefix: str) -> ApiKey | None:
        connection = connections[router.db_for_read(ApiKey)]
        lookup = cls._by_alias.get(connection.alias)
        if lookup is None:
            lookup = cls._by_alias[connection.alias] = cls(connection)
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
        with writes_no_page_shows():
            ApiKey.objects.filter(pk=key.pk).update(last_used_at=now)
    return Credential.build("api_key", key.pk, key.name, key.organization, key.scopes)


def register() -> None:
    register_resolver(authenticate_api_key)
