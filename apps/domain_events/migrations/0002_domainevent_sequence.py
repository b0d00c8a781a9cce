from django.db import migrations, models


def mark_existing_relayed(apps, schema_editor):
    """Events recorded before the relay existed are history, not deliveries owed: give them sequence numbers in
    their recorded order (the feed can still page through them) so the relay's sweep leaves them alone."""
    DomainEvent = apps.get_model("domain_events", "DomainEvent")
    counters = {}
    batch = []
    for event in DomainEvent.objects.order_by("created_at", "id").only("id", "organization_id").iterator():
        counters[event.organization_id] = counters.get(event.organization_id, 0) + 1
        event.sequence = counters[event.organization_id]
        batch.append(event)
        if len(batch) >= 1000:
            DomainEvent.objects.bulk_update(batch, ["sequence"])
            batch = []
    if batch:
        DomainEvent.objects.bulk_update(batch, ["sequence"])


class Migration(migrations.Migration):
    dependencies = [("domain_events", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="domainevent", name="sequence", field=models.BigIntegerField(blank=True, null=True)
        ),
        migrations.RunPython(mark_existing_relayed, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="domainevent",
            index=models.Index(fields=["organization", "sequence"], name="domain_event_org_sequence"),
        ),
        migrations.AddIndex(
            model_name="domainevent",
            index=models.Index(
                condition=models.Q(("sequence__isnull", True)), fields=["created_at"], name="domain_event_unrelayed"
            ),
        ),
    ]
