"""The contacts search's trigram index (docs/decisions/scale.md): `q` filters on `UPPER(SEARCH_TEXT) LIKE
UPPER('%term%')`, which a GIN index of that very expression with `gin_trgm_ops` answers. PostgreSQL only: the
embedded SQLite default has neither pg_trgm nor GIN and searches by a scan. Raw SQL because Django's index
expressions put the operator class inside the expression's parentheses for this expression."""

from django.contrib.postgres.operations import TrigramExtension
from django.db import migrations
from django.db.models.functions import Upper
from django.db.models.sql import Query

from apps.contacts.models import SEARCH_TEXT

INDEX = "contact_search_trgm"


def create(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    contact = apps.get_model("contacts", "Contact")
    query = Query(contact, alias_cols=False)
    sql, params = Upper(SEARCH_TEXT).resolve_expression(query).as_sql(
        query.get_compiler(connection=schema_editor.connection), schema_editor.connection
    )
    expression = sql % tuple(schema_editor.quote_value(value) for value in params)
    table = contact._meta.db_table
    schema_editor.execute(f"CREATE INDEX {INDEX} ON {table} USING gin (({expression}) gin_trgm_ops)")


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    dependencies = [("contacts", "0002_scale_indexes")]

    operations = [
        TrigramExtension(),  # CREATE EXTENSION IF NOT EXISTS pg_trgm; skipped on other databases
        migrations.RunPython(create, drop),
    ]
