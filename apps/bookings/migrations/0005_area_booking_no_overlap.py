"""Defense in depth beside the Area row lock: on PostgreSQL, two active area bookings of one area can never overlap.

An exclusion constraint over (area_id, [start_time, end_time)) for active area bookings (btree_gist). It only runs
on PostgreSQL; SQLite (the embedded default) relies on the row lock alone. Where the btree_gist extension cannot be
created (no privilege), the constraint is skipped rather than failing the deploy.
"""

from django.db import migrations

CONSTRAINT = "booking_area_no_overlap"

CREATE = f"""
ALTER TABLE bookings_booking ADD CONSTRAINT {CONSTRAINT}
EXCLUDE USING gist (area_id WITH =, tstzrange(start_time, end_time, '[)') WITH &&)
WHERE (type = 'area' AND area_id IS NOT NULL AND status IN ('pending', 'confirmed', 'checked_in'))
"""


def add_constraint(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_extension WHERE extname = 'btree_gist'")
        if cursor.fetchone() is None:
            cursor.execute("SAVEPOINT btree_gist")
            try:
                cursor.execute("CREATE EXTENSION IF NOT EXISTS btree_gist")
            except Exception:
                cursor.execute("ROLLBACK TO SAVEPOINT btree_gist")
                return
            cursor.execute("RELEASE SAVEPOINT btree_gist")
        cursor.execute(CREATE)


def drop_constraint(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(f"ALTER TABLE bookings_booking DROP CONSTRAINT IF EXISTS {CONSTRAINT}")


class Migration(migrations.Migration):
    dependencies = [("bookings", "0004_checkin_contact_nullable")]

    operations = [migrations.RunPython(add_constraint, drop_constraint)]
