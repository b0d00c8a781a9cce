"""The membership foreign keys point at memberships.Membership (the same table, moved from billing): state only."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("bookings", "0008_booking_event_foreign_keys"),
        ("memberships", "0002_membership_from_billing"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="booking",
                    name="membership",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="bookings",
                        to="memberships.membership",
                    ),
                ),
                migrations.AlterField(
                    model_name="checkin",
                    name="membership",
                    field=models.ForeignKey(
                        blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to="memberships.membership"
                    ),
                ),
            ],
        ),
    ]
