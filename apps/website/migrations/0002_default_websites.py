"""Every organization that existed before websites gets its default website (as new organizations do)."""

import hashlib

import orjson
from django.db import migrations
from django.utils.text import slugify

EMPTY_DRAFT = {"pages": [], "layout": {}, "styles": {}, "seoSettings": {}}


def create_default_websites(apps, schema_editor):
    Organization = apps.get_model("organizations", "Organization")
    Website = apps.get_model("website", "Website")
    draft_hash = hashlib.sha256(orjson.dumps(EMPTY_DRAFT, option=orjson.OPT_SORT_KEYS)).hexdigest()
    for organization in Organization.objects.exclude(websites__is_default=True):
        base = (slugify(organization.slug) or "site")[:59].strip("-") or "site"
        slug, n = base, 1
        while Website.objects.filter(slug=slug).exists():
            n += 1
            slug = f"{base}-{n}"
        Website.objects.create(
            organization=organization, name=organization.name, slug=slug, is_default=True, draft_hash=draft_hash
        )


class Migration(migrations.Migration):
    dependencies = [("website", "0001_initial"), ("organizations", "0001_initial")]

    operations = [migrations.RunPython(create_default_websites, migrations.RunPython.noop)]
