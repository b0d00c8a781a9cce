"""The area-booking exclusion constraint: declared on the model, enforced by PostgreSQL beside the Area row lock."""

import datetime as dt
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction
from django.db.utils import ConnectionHandler
from django.utils import timezone

from apps.bookings import services
from apps.bookings.models import Booking

from .conftest import iso
from .factories import area_booking, area_for

URL = "/v1/platform/bookings"
postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the exclusion constraint exists on PostgreSQL only"
)
NAME = "booking_area_no_overlap"


@postgres_only
def test_database_refuses_overlapping_active_area_bookings(organization, area, contact):
    start = timezone.now() + dt.timedelta(days=4)
    area_booking(organization, area=area, contact=contact, start=start, hours=2)
    with pytest.raises(IntegrityError), transaction.atomic():
        area_booking(organization, area=area, contact=contact, start=start + dt.timedelta(hours=1))
    # cancelled bookings, touching slots and other areas do not conflict
    area_booking(organization, area=area, contact=contact, start=start, status="cancelled")
    area_booking(organization, area=area, contact=contact, start=start + dt.timedelta(hours=2))
    area_booking(organization, area=area_for(organization), contact=contact, start=start)


@postgres_only
def test_overlap_constraint_answers_409_slot_unavailable_when_the_lock_is_bypassed(api, area, contact, monkeypatch):
    """Defense in depth: even with the application check switched off, the database refuses the second booking and
    the client sees the usual 409, with the conflicting booking named."""
    start = (timezone.now() + dt.timedelta(days=5)).replace(minute=0, second=0, microsecond=0)
    body = {"areaId": area.id, "contactId": contact.id, "startTime": iso(start)}
    first = api.post(URL, {**body, "endTime": iso(start + dt.timedelta(hours=2))}, format="json")
    assert first.status_code == 201
    monkeypatch.setattr(services, "_ensure_slot_free", lambda *args, **kwargs: None)
    second = api.post(
        URL,
        {**body, "startTime": iso(start + dt.timedelta(hours=1)), "endTime": iso(start + dt.timedelta(hours=3))},
        format="json",
    )
    assert second.status_code == 409, second.content
    assert second.json()["code"] == "SLOT_UNAVAILABLE"
    assert second.json()["details"] == {"conflicts": [{"type": "booking", "id": first.json()["id"]}]}
    assert Booking.objects.filter(area=area).count() == 1
    # a reschedule onto the first booking is refused the same way
    other = api.post(
        URL,
        {**body, "startTime": iso(start + dt.timedelta(hours=4)), "endTime": iso(start + dt.timedelta(hours=5))},
        format="json",
    ).json()
    moved = api.patch(f"{URL}/{other['id']}", {"startTime": iso(start + dt.timedelta(hours=1))}, format="json")
    assert moved.status_code == 409 and moved.json()["code"] == "SLOT_UNAVAILABLE"
    assert Booking.objects.get(pk=other["id"]).start_time == start + dt.timedelta(hours=4)


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
