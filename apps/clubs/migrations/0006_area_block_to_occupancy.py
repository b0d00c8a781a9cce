"""The AreaBlock model now lives in occupancy (its table, `clubs_areablock`, stays): state only."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0005_public_url_validators"),
        ("occupancy", "0001_area_block_from_clubs"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[migrations.DeleteModel(name="AreaBlock")]),
    ]
