from django.db import migrations, models
from django.db.models import Value
from django.db.models.functions import Cast, Concat


def key_legacy_records_by_organization(apps, schema_editor):
    """Records written before keys were per credential cannot name their credential: give them a value no
    credential has (`organization:<id>`), so they stay unique, are never replayed and expire with the TTL."""
    IdempotencyRecord = apps.get_model("api", "IdempotencyRecord")
    IdempotencyRecord.objects.update(
        credential_key=Concat(Value("organization:"), Cast("organization_id", models.CharField()))
    )


class Migration(migrations.Migration):
    dependencies = [
        ("api", "0001_initial"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="idempotencyrecord", name="uniq_idempotency_key"),
        migrations.AddField(
            model_name="idempotencyrecord",
            name="credential_key",
            field=models.CharField(default="", max_length=100),
            preserve_default=False,
        ),
        migrations.RunPython(key_legacy_records_by_organization, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="idempotencyrecord",
            constraint=models.UniqueConstraint(
                fields=("credential_key", "key"), name="uniq_idempotency_credential_key"
            ),
        ),
    ]
