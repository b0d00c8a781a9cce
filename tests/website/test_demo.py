"""The demo website: published in two languages by seed_demo, once (a rerun publishes nothing new)."""

import io

import pytest
from django.core.management import call_command
from django.test import Client

from apps.website.models import Release, Website


@pytest.mark.django_db
def test_seed_demo_publishes_the_demo_website_once(settings):
    settings.SITE_SCHEME, settings.SITE_HOST = "http", "sites.localhost:8000"
    first, second = io.StringIO(), io.StringIO()
    call_command("seed_demo", "--allow-production", stdout=first)
    call_command("seed_demo", "--allow-production", stdout=second)
    assert "Demo website: http://demo.sites.localhost:8000/" in first.getvalue()
    assert second.getvalue().strip().splitlines()[-1].startswith("Demo API key: ")
    website = Website.objects.get(organization__slug="demo", is_default=True)
    assert Release.objects.filter(website=website).count() == 1
    home = Client().get("/", HTTP_HOST="demo.sites.localhost:8000")
    assert home.status_code == 200
    body = home.content.decode()
    assert "Play, train and belong" in body and "Monthly unlimited" in body and 'id="classes"' in body
    spanish = Client().get("/es/about", HTTP_HOST="demo.sites.localhost:8000").content.decode()
    assert "Nuestra historia" in spanish and '<html lang="es">' in spanish
