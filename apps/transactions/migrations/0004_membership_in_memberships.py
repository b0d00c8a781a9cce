"""The membership foreign key points at memberships.Membership (the same table, moved from billing): state only."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("memberships", "0002_membership_from_billing"),
        ("transactions", "0003_transaction_org_occurred_index"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="transaction",
                    name="membership",
                    field=models.ForeignKey(
                        blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to="memberships.membership"
                    ),
                ),
            ],
        ),
    ]
