"""The Membership model now lives in memberships (its table, `billing_membership`, stays): state only."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("billing", "0007_membership_choices"),
        ("bookings", "0009_membership_in_memberships"),
        ("memberships", "0002_membership_from_billing"),
        ("transactions", "0004_membership_in_memberships"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[migrations.DeleteModel(name="Membership")]),
    ]
