"""The area-booking exclusion constraint is declared on the model and is the one the database enforces."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.utils import ConnectionHandler

from apps.bookings.models import Booking

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the exclusion constraint exists on PostgreSQL only"
)
NAME = "booking_area_no_overlap"


def database_definition():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_get_constraintdef(oid) FROM pg_constraint "
            "WHERE conname = %s AND conrelid = 'bookings_booking'::regclass",
            [NAME],
        )
        row = cursor.fetchone()
    return row[0] if row else None


def test_the_models_match_the_migrations(db):
    out = StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue()


@postgres_only
def test_the_declared_constraint_renders_the_definition_in_the_database(db):
    declared = next(c for c in Booking._meta.constraints if c.name == NAME)
    migrated = database_definition()
    assert migrated is not None and migrated.startswith("EXCLUDE USING gist")
    with connection.schema_editor() as editor:
        editor.remove_constraint(Booking, declared)
        assert database_definition() is None
        editor.add_constraint(Booking, declared)
    assert database_definition() == migrated


def test_sqlite_skips_the_constraint(db):
    """The embedded default: its tables are created and remade without the constraint."""
    sqlite = ConnectionHandler({"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}})["default"]
    declared = next(c for c in Booking._meta.constraints if c.name == NAME)
    try:
        with sqlite.schema_editor(collect_sql=True) as editor:
            table_sql, _ = editor.table_sql(Booking)
            assert "CREATE TABLE" in table_sql and "EXCLUDE" not in table_sql
            assert declared.create_sql(Booking, editor) is None
            assert declared.remove_sql(Booking, editor) is None
    finally:
        sqlite.close()
