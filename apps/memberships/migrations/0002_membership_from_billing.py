"""The Membership model moves from billing to memberships: state only, the table stays `billing_membership`.

The content type is renamed too, so permissions granted on memberships and the admin's history follow the model.
"""

import django.db.models.deletion
from django.db import migrations, models


def rename_content_type(apps, schema_editor, old="billing", new="memberships"):
    content_types = apps.get_model("contenttypes", "ContentType").objects.using(schema_editor.connection.alias)
    if not content_types.filter(app_label=new, model="membership").exists():
        content_types.filter(app_label=old, model="membership").update(app_label=new)


def restore_content_type(apps, schema_editor):
    rename_content_type(apps, schema_editor, old="memberships", new="billing")


class Migration(migrations.Migration):
    dependencies = [
        ("billing", "0007_membership_choices"),
        ("clubs", "0004_marketplace_slug_and_geo_index"),
        ("contacts", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("memberships", "0001_initial"),
        ("organizations", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Membership",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID"),
                        ),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("active", "Active"),
                                    ("paused", "Paused"),
                                    ("cancelled", "Cancelled"),
                                    ("expired", "Expired"),
                                ],
                                default="active",
                                max_length=12,
                            ),
                        ),
                        ("price", models.DecimalField(decimal_places=2, default=0, max_digits=10)),
                        ("signup_fee", models.DecimalField(decimal_places=2, default=0, max_digits=10)),
                        (
                            "billing_frequency",
                            models.CharField(
                                choices=[
                                    ("one_time", "One time"),
                                    ("weekly", "Weekly"),
                                    ("monthly", "Monthly"),
                                    ("quarterly", "Quarterly"),
                                    ("annually", "Annually"),
                                    ("custom", "Custom"),
                                ],
                                default="monthly",
                                max_length=20,
                            ),
                        ),
                        (
                            "payment_status",
                            models.CharField(
                                choices=[("paid", "Current period paid"), ("unpaid", "Current period not paid")],
                                default="unpaid",
                                max_length=10,
                            ),
                        ),
                        ("start_date", models.DateField()),
                        ("end_date", models.DateField(blank=True, null=True)),
                        ("next_billing_date", models.DateField(blank=True, null=True)),
                        ("uses_remaining", models.IntegerField(blank=True, null=True)),
                        ("paused_at", models.DateTimeField(blank=True, null=True)),
                        ("resume_date", models.DateField(blank=True, null=True)),
                        ("cancel_at", models.DateField(blank=True, null=True)),
                        ("cancelled_at", models.DateTimeField(blank=True, null=True)),
                        ("cancellation_reason", models.TextField(blank=True, null=True)),
                        ("source", models.CharField(default="admin", max_length=20)),
                        ("notes", models.TextField(blank=True, null=True)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                        (
                            "club",
                            models.ForeignKey(
                                blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to="clubs.club"
                            ),
                        ),
                        (
                            "contact",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="memberships",
                                to="contacts.contact",
                            ),
                        ),
                        (
                            "organization",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="memberships",
                                to="organizations.organization",
                            ),
                        ),
                        (
                            "plan",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="memberships",
                                to="billing.plan",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "billing_membership",
                        "ordering": ["-created_at", "-id"],
                        "indexes": [
                            models.Index(fields=["contact", "status"], name="billing_mem_contact_4ed904_idx")
                        ],
                    },
                ),
                migrations.AlterField(
                    model_name="membershipperiod",
                    name="membership",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="periods",
                        to="memberships.membership",
                    ),
                ),
            ],
        ),
        migrations.RunPython(rename_content_type, restore_content_type),
    ]
