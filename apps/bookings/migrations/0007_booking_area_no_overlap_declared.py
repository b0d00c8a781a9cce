"""The area-booking exclusion constraint, declared on the model (`Booking.Meta.constraints`).

0005 created it with raw SQL, so Django's model state did not know it. Here the state learns it; in the database
the btree_gist extension becomes required and the constraint is created only where 0005 left it out (the extension
could not be created then). The declaration renders the same definition as 0005's SQL, so an existing constraint
is kept as it is, with no rebuild. Reversing changes nothing in the database: what 0005 made stays, and 0005's own
reverse drops the constraint. Other databases (the embedded SQLite) skip all of it.
"""

import django.contrib.postgres.fields.ranges
from django.contrib.postgres.operations import BtreeGistExtension
from django.db import migrations, models

import apps.bookings.constraints

NAME = "booking_area_no_overlap"

CONSTRAINT = apps.bookings.constraints.PostgresOnlyExclusionConstraint(
    condition=models.Q(("type", "area"), ("area__isnull", False), ("status__in", ("pending", "confirmed", "checked_in"))),
    expressions=[
        ("area", "="),
        (
            apps.bookings.constraints.TsTzRange(
                "start_time", "end_time", django.contrib.postgres.fields.ranges.RangeBoundary()
            ),
            "&&",
        ),
    ],
    name=NAME,
)


def _exists(schema_editor) -> bool:
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "SELECT 1 FROM pg_constraint WHERE conname = %s AND conrelid = 'bookings_booking'::regclass", [NAME]
        )
        return cursor.fetchone() is not None


def add_if_missing(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql" or _exists(schema_editor):
        return
    schema_editor.add_constraint(apps.get_model("bookings", "Booking"), CONSTRAINT)


class BtreeGistExtensionKeptOnReverse(BtreeGistExtension):
    """Reversing keeps the extension: 0005's constraint may still use it (and SQLite has none to look up)."""

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        pass


class Migration(migrations.Migration):
    dependencies = [("bookings", "0006_enum_choices")]

    operations = [
        BtreeGistExtensionKeptOnReverse(),
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunPython(add_if_missing, migrations.RunPython.noop)],
            state_operations=[migrations.AddConstraint(model_name="booking", constraint=CONSTRAINT)],
        ),
    ]
