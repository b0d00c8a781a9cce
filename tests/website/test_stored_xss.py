"""Stored XSS through fields the API validates but the admin did not (issue 17, item 1): offered languages reach the
sitemap, social profiles the site footer and the marketplace profile. The models refuse them now, whichever door
they come through, and what older rows hold is written escaped (sitemap) or left out (links)."""

import json
import xml.etree.ElementTree as ET

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.test import Client

from apps.clubs.models import Club
from apps.content.models import MediaItem
from apps.organizations.models import Organization
from apps.website.models import Website

pytestmark = pytest.mark.django_db

BASE = "/v1/platform/website"
HOST = "padel-palace.sites.localhost"
LANGUAGE_PAYLOAD = 'es" /><xhtml:script xmlns:xhtml="http://www.w3.org/1999/xhtml">alert(1)</xhtml:script><x a="'
JAVASCRIPT_LINK = "javascript:alert(document.domain)"


@pytest.fixture
def admin_client():
    user = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def published(api, club):
    api.post(f"{BASE}/pages", {"slug": "home", "title": "Home", "sections": []}, format="json")
    footer = {"type": "footer", "config": {"text": "See you on court", "showSocial": True}}
    assert api.patch(f"{BASE}/layout", {"footer": footer}, format="json").status_code == 200
    Website.objects.update(club=club)
    assert api.post(f"{BASE}/publish", {}, format="json").status_code == 201


def organization_form(organization, **changes):
    data = {
        "name": organization.name,
        "slug": organization.slug,
        "currency": organization.currency,
        "default_tax_rate": str(organization.default_tax_rate),
        "default_language": organization.default_language,
        "offered_languages": json.dumps(organization.offered_languages),
        "timezone": organization.timezone,
        "plan": organization.plan,
        "status": organization.status,
        "booking_card_names": "{}",
        "staff-TOTAL_FORMS": "0",
        "staff-INITIAL_FORMS": "0",
        "staff-MIN_NUM_FORMS": "0",
        "staff-MAX_NUM_FORMS": "1000",
    }
    data.update(changes)
    return data


def club_form(club, **changes):
    data = {
        "organization": club.organization_id,
        "name": club.name,
        "slug": club.slug,
        "description": "",
        "is_active": "on",
        "timezone": club.timezone,
        "images": "[]",
        "amenities": "[]",
        "sports": "[]",
        "social_profiles": "{}",
        "opening_hours": "{}",
        "closed_dates": "[]",
        "areas-TOTAL_FORMS": "0",
        "areas-INITIAL_FORMS": "0",
        "areas-MIN_NUM_FORMS": "0",
        "areas-MAX_NUM_FORMS": "1000",
    }
    data.update(changes)
    return data


@pytest.mark.parametrize("language", [LANGUAGE_PAYLOAD, "es\n", "ES", ""])
def test_the_organization_admin_refuses_a_language_that_is_not_a_code(admin_client, organization, language):
    url = f"/admin/organizations/organization/{organization.pk}/change/"
    response = admin_client.post(url, organization_form(organization, offered_languages=json.dumps(["en", language])))
    assert response.status_code == 200, response.status_code  # the form again, with the error
    assert "Invalid language" in response.content.decode()
    organization.refresh_from_db()
    assert organization.offered_languages == ["en", "es"]


def test_the_organization_admin_still_saves_good_languages(admin_client, organization):
    url = f"/admin/organizations/organization/{organization.pk}/change/"
    response = admin_client.post(url, organization_form(organization, offered_languages='["en", "es", "pt-BR"]'))
    assert response.status_code == 302, response.content.decode()[:2000]
    organization.refresh_from_db()
    assert organization.offered_languages == ["en", "es", "pt-BR"]


def test_a_language_stored_before_validation_cannot_inject_markup_into_the_sitemap(organization, published):
    Organization.objects.filter(pk=organization.pk).update(offered_languages=["en", LANGUAGE_PAYLOAD])
    response = Client().get("/sitemap.xml", HTTP_HOST=HOST)
    assert response.status_code == 200
    root = ET.fromstring(response.content)  # well-formed
    assert not [element for element in root.iter() if element.tag.endswith("script")]
    links = root.findall(".//{http://www.w3.org/1999/xhtml}link")
    assert LANGUAGE_PAYLOAD in [link.get("hreflang") for link in links]  # an attribute value, quotes escaped
    assert b"<xhtml:script" not in response.content


def test_the_club_admin_refuses_a_javascript_social_link_and_the_footer_never_shows_one(admin_client, club, published):
    url = f"/admin/clubs/club/{club.pk}/change/"
    bad = club_form(club, social_profiles=json.dumps({"instagram": JAVASCRIPT_LINK}))
    response = admin_client.post(url, bad)
    assert response.status_code == 200 and "Invalid link" in response.content.decode()
    assert Club.objects.get(pk=club.pk).social_profiles == {}
    good = club_form(club, social_profiles='{"instagram": "https://instagram.com/centrecourt"}')
    assert admin_client.post(url, good).status_code == 302
    page = Client().get("/", HTTP_HOST=HOST).content.decode()
    assert '<a href="https://instagram.com/centrecourt">instagram</a>' in page
    # A row stored before the validator existed: the link is left out of the page.
    Club.objects.filter(pk=club.pk).update(social_profiles={"instagram": JAVASCRIPT_LINK, "x": "https://x.com/cc"})
    cache.clear()  # the page cache holds the earlier render
    page = Client().get("/", HTTP_HOST=HOST).content.decode()
    assert "javascript:" not in page and '<a href="https://x.com/cc">x</a>' in page


def test_the_marketplace_profile_passes_on_only_web_links(club):
    Club.objects.filter(pk=club.pk).update(
        marketplace_listed=True, social_profiles={"instagram": JAVASCRIPT_LINK, "x": "https://x.com/cc"}
    )
    response = Client().get(f"/v1/public/network/clubs/{club.slug}")
    assert response.status_code == 200, response.content
    assert response.json()["socialProfiles"] == {"x": "https://x.com/cc"}


def test_the_club_admin_refuses_media_that_is_not_https(admin_client, club):
    url = f"/admin/clubs/club/{club.pk}/change/"
    response = admin_client.post(url, club_form(club, logo="http://cdn.example.com/logo.png"))
    assert response.status_code == 200 and "https://" in response.content.decode()
    response = admin_client.post(url, club_form(club, images='["javascript:alert(1)"]'))
    assert response.status_code == 200 and "Invalid media address" in response.content.decode()
    assert Club.objects.get(pk=club.pk).logo is None


def test_media_items_are_https_only_in_the_model(organization):
    item = MediaItem(organization=organization, url="http://cdn.example.com/a.png", name="a", media_type="image")
    with pytest.raises(ValidationError, match="https"):
        item.full_clean()
    item.url = "https://cdn.example.com/a.png"
    item.full_clean()


def test_the_settings_api_refuses_the_same_languages(api, organization):
    response = api.patch("/v1/platform/organization", {"offeredLanguages": ["en", LANGUAGE_PAYLOAD]}, format="json")
    assert response.status_code == 400, response.content
    assert list(response.json()["details"]["fields"]) == ["offeredLanguages.1"]
    # The API trims surrounding whitespace: a trailing newline never reaches the row.
    response = api.patch("/v1/platform/organization", {"offeredLanguages": ["en", "ca\n"]}, format="json")
    assert response.status_code == 200 and response.json()["offeredLanguages"] == ["en", "ca"]
    organization.refresh_from_db()
    assert organization.offered_languages == ["en", "ca"]
