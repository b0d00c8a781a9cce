# Custom domains: a DNS TXT challenge per domain, and one lower-case normal form (issue 17, item 2).

import secrets

import django.db.models.functions.text
from django.core.exceptions import ValidationError
from django.db import migrations, models

from apps.website.domains import normalize_domain


def normalize_existing_domains(apps, schema_editor):
    """Every stored domain in its normal form, unverified, with a challenge token. A value that cannot be a
    website's domain (or a platform host), or a second website's copy of a domain, is cleared: it was never proven
    and would be refused now."""
    Website = apps.get_model("website", "Website")
    taken, normal = set(), {}
    for pk, raw in Website.objects.exclude(domain=None).order_by("id").values_list("id", "domain"):
        try:
            domain = normalize_domain(raw)
        except ValidationError:
            domain = None
        if domain in taken:
            domain = None
        if domain:
            taken.add(domain)
        normal[pk] = domain
    Website.objects.filter(pk__in=normal).update(domain=None)  # no clash with a row not rewritten yet
    for pk, domain in normal.items():
        Website.objects.filter(pk=pk).update(
            domain=domain, domain_challenge=secrets.token_urlsafe(24) if domain else "", domain_verified_at=None
        )


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0005_public_url_validators"),
        ("organizations", "0003_signed_link_epochs"),
        ("website", "0002_default_websites"),
    ]

    operations = [
        migrations.AddField(
            model_name="website",
            name="domain_challenge",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="website",
            name="domain_verified_at",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
        migrations.AlterField(
            model_name="website",
            name="domain",
            field=models.CharField(
                blank=True,
                help_text="A custom domain (www.example.com), served only once its DNS TXT challenge is verified.",
                max_length=253,
                null=True,
                unique=True,
            ),
        ),
        migrations.RunPython(normalize_existing_domains, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="website",
            constraint=models.UniqueConstraint(
                django.db.models.functions.text.Lower("domain"), name="website_domain_unique_ci"
            ),
        ),
    ]
