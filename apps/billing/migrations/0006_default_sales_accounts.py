"""Every existing organization starts with a default sales account (new ones get it when they are created)."""

from django.db import migrations

DEFAULT_ACCOUNT_NAME = "Sales"


def create_default_accounts(apps, schema_editor):
    Organization = apps.get_model("organizations", "Organization")
    RevenueAccount = apps.get_model("billing", "RevenueAccount")
    with_default = RevenueAccount.objects.filter(is_default=True).values("organization_id")
    RevenueAccount.objects.bulk_create(
        [
            RevenueAccount(organization_id=org_id, name=DEFAULT_ACCOUNT_NAME, is_default=True, is_active=True)
            for org_id in Organization.objects.exclude(pk__in=with_default).values_list("pk", flat=True)
        ]
    )


class Migration(migrations.Migration):
    dependencies = [
        ("billing", "0005_revenue_accounts_plan_fields"),
    ]

    operations = [migrations.RunPython(create_default_accounts, migrations.RunPython.noop)]
