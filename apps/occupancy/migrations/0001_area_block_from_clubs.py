"""The AreaBlock model moves from clubs to occupancy: state only, the table stays `clubs_areablock`.

The content type is renamed too, so permissions granted on blocks and the admin's history follow the model.
"""

import django.db.models.deletion
from django.db import migrations, models


def rename_content_type(apps, schema_editor, old="clubs", new="occupancy"):
    content_types = apps.get_model("contenttypes", "ContentType").objects.using(schema_editor.connection.alias)
    if not content_types.filter(app_label=new, model="areablock").exists():
        content_types.filter(app_label=old, model="areablock").update(app_label=new)


def restore_content_type(apps, schema_editor):
    rename_content_type(apps, schema_editor, old="occupancy", new="clubs")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("clubs", "0005_public_url_validators"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("organizations", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="AreaBlock",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID"),
                        ),
                        ("start_time", models.DateTimeField()),
                        ("end_time", models.DateTimeField()),
                        ("reason", models.CharField(blank=True, max_length=255, null=True)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "area",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="blocks", to="clubs.area"
                            ),
                        ),
                        ("club", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, to="clubs.club")),
                        (
                            "organization",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, to="organizations.organization"
                            ),
                        ),
                    ],
                    options={
                        "db_table": "clubs_areablock",
                        "ordering": ["start_time", "id"],
                        "indexes": [
                            models.Index(
                                fields=["area", "start_time", "end_time"], name="clubs_areab_area_id_e6763c_idx"
                            ),
                            models.Index(fields=["organization", "start_time", "id"], name="area_block_org_start"),
                        ],
                        "constraints": [
                            models.CheckConstraint(
                                condition=models.Q(("end_time__gt", models.F("start_time"))),
                                name="block_end_after_start",
                            )
                        ],
                    },
                ),
            ],
        ),
        migrations.RunPython(rename_content_type, restore_content_type),
    ]
