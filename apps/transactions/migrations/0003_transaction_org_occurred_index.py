from django.db import migrations, models


class Migration(migrations.Migration):
    """The revenue report and analytics select one organization's period on `occurred_at`."""

    dependencies = [
        ("transactions", "0002_transaction_invoice"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="transaction",
            index=models.Index(fields=["organization", "occurred_at"], name="transaction_org_occurred"),
        ),
    ]
