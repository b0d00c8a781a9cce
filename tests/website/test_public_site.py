"""The published website as visitors get it: host routing, the served release (never the draft, except through the
preview link), locales, live plans and classes, sitemap and robots, cache headers, escaping and query counts."""

import datetime as dt
import xml.etree.ElementTree as ET
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.billing.models import Plan
from apps.website.models import Website
from tests.factories import make_class

BASE = "/v1/platform/website"
PAGES = f"{BASE}/pages"
HOST = "padel-palace.sites.localhost"
HERO = {"type": "hero", "config": {"title": "Play padel"}, "translations": {"es": {"title": "Juega al pádel"}}}


def visit(path="/", host=HOST, **headers):
    return Client().get(path, HTTP_HOST=host, **headers)


def publish(api):
    response = api.post(f"{BASE}/publish", {}, format="json")
    assert response.status_code == 201, response.content
    return response.json()["version"]


@pytest.fixture
def site(api):
    home = api.post(PAGES, {"slug": "home", "title": "Home", "sections": [HERO]}, format="json").json()
    about = api.post(
        PAGES,
        {"slug": "about", "title": "About us", "sections": [{"type": "text", "config": {"body": "<p>Since 1999</p>"}}]},
        format="json",
    ).json()
    return {"home": home, "about": about}


@pytest.mark.django_db
def test_nothing_is_served_before_the_first_publish(api, site):
    response = visit()
    assert response.status_code == 404 and b"Not found" in response.content
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.django_db
def test_the_public_sees_draft_edits_only_after_publish_and_old_content_after_rollback(api, site):
    publish(api)
    home = visit()
    assert home.status_code == 200
    assert "<h1>Play padel</h1>" in home.content.decode()
    assert "Since 1999" in visit("/about").content.decode()
    edit = {"config": {"title": "Play tennis too"}, "translations": {}}
    assert api.patch(f"{PAGES}/{site['home']['id']}/sections/hero", edit, format="json").status_code == 200
    assert "Play padel" in visit().content.decode()  # the draft is not served
    preview_url = api.get(BASE).json()["previewUrl"]
    preview_path = preview_url.split(HOST, 1)[1]
    preview = visit(preview_path)
    assert preview.status_code == 200 and "Play tennis too" in preview.content.decode()
    assert preview["Cache-Control"] == "private, no-store" and "noindex" in preview["X-Robots-Tag"]
    assert visit(preview_path.replace("/_preview/", "/_preview/x")).status_code == 404
    publish(api)
    assert "Play tennis too" in visit().content.decode()
    assert api.post(f"{BASE}/releases/1/rollback").status_code == 200
    assert "Play padel" in visit().content.decode()


@pytest.mark.django_db
def test_inactive_sites_and_unknown_hosts_are_plain_404(api, organization, site):
    publish(api)
    assert visit(host="nobody.sites.localhost").status_code == 404
    Website.objects.filter(organization=organization).update(is_active=False)
    assert visit().status_code == 404
    assert visit("/sitemap.xml").status_code == 404


@pytest.mark.django_db
def test_a_custom_domain_serves_the_site(api, organization, site):
    publish(api)
    # Verified (tests/website/test_custom_domains.py covers the challenge).
    Website.objects.filter(organization=organization).update(
        domain="www.padelpalace.example", domain_verified_at=timezone.now()
    )
    response = visit(host="www.padelpalace.example")
    assert response.status_code == 200 and "Play padel" in response.content.decode()
    assert '<link rel="canonical" href="https://www.padelpalace.example/">' in response.content.decode()


@pytest.mark.django_db
def test_locales_have_prefixes_alternates_and_translations(api, site):
    publish(api)
    spanish = visit("/es/").content.decode()
    assert '<html lang="es">' in spanish and "<h1>Juega al pádel</h1>" in spanish
    assert '<link rel="canonical" href="https://padel-palace.sites.localhost/es/">' in spanish
    assert '<link rel="alternate" hreflang="en" href="https://padel-palace.sites.localhost/">' in spanish
    assert '<link rel="alternate" hreflang="es" href="https://padel-palace.sites.localhost/es/">' in spanish
    assert visit("/es/about").status_code == 200
    assert visit("/fr/about").status_code == 404  # not an offered language: no such page


@pytest.mark.django_db
def test_plans_show_public_active_plans_with_tax_inclusive_prices(api, organization, site):
    Plan.objects.create(organization=organization, name="Unlimited", price=Decimal("49.90"), features=["All classes"])
    Plan.objects.create(organization=organization, name="Secret", price=Decimal("1"), visibility="Hidden")
    Plan.objects.create(organization=organization, name="Old", price=Decimal("2"), is_active=False)
    section = {"type": "plans", "config": {"heading": "Memberships", "showFeatures": True}}
    api.post(f"{PAGES}/{site['home']['id']}/sections", section, format="json")
    publish(api)
    body = visit().content.decode()
    assert "Unlimited" in body and "€49.90" in body and "per month" in body and "All classes" in body
    assert "Secret" not in body and "Old" not in body
    spanish = visit("/es/").content.decode()
    assert "al mes" in spanish and "49,90\xa0€" in spanish  # money as Babel writes it in Spanish


@pytest.mark.django_db
def test_the_class_schedule_shows_upcoming_public_classes_on_the_club_clock(api, organization, club, site):
    start = (timezone.now() + dt.timedelta(days=2)).astimezone(dt.UTC).replace(hour=16, minute=0, second=0)
    make_class(organization, club, name="Sunset yoga", start=start)
    make_class(organization, club, name="Members only", start=start, visibility="Private")
    api.post(f"{PAGES}/{site['home']['id']}/sections", {"type": "class-schedule", "config": {}}, format="json")
    publish(api)
    body = visit().content.decode()
    assert "Sunset yoga" in body and "Members only" not in body
    local = start.astimezone(ZoneInfo("Europe/Madrid")).strftime("%H:%M")
    assert local in ("17:00", "18:00") and f">{local}</time>–" in body


@pytest.mark.django_db
def test_sitemap_lists_published_indexable_pages_with_alternates_and_robots_points_at_it(api, site):
    api.post(PAGES, {"slug": "private", "title": "Private", "noindex": True}, format="json")
    publish(api)
    response = visit("/sitemap.xml")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/xml")
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    root = ET.fromstring(response.content)
    locations = [url.find("s:loc", ns).text for url in root.findall("s:url", ns)]
    assert locations == ["https://padel-palace.sites.localhost/", "https://padel-palace.sites.localhost/about"]
    alternates = root.findall("s:url", ns)[1].findall("x:link", ns)
    assert [(a.get("hreflang"), a.get("href")) for a in alternates] == [
        ("en", "https://padel-palace.sites.localhost/about"),
        ("es", "https://padel-palace.sites.localhost/es/about"),
    ]
    robots = visit("/robots.txt").content.decode()
    assert "Sitemap: https://padel-palace.sites.localhost/sitemap.xml" in robots
    assert '<meta name="robots" content="noindex">' in visit("/private").content.decode()


@pytest.mark.django_db
def test_cache_headers_follow_the_release(api, site):
    first_version = publish(api)
    response = visit()
    assert response["Cache-Control"] == "public, max-age=60"
    assert response["X-Website-Release"] == str(first_version)
    etag = response["ETag"]
    assert visit(HTTP_IF_NONE_MATCH=etag).status_code == 304
    api.patch(f"{PAGES}/{site['home']['id']}", {"title": "Start"}, format="json")
    publish(api)
    after = visit(HTTP_IF_NONE_MATCH=etag)
    assert after.status_code == 200 and after["ETag"] != etag


@pytest.mark.django_db
def test_every_value_is_escaped(api, site):
    hostile = {"config": {"title": '<script>alert("x")</script>', "subtitle": '"><img src=x onerror=alert(1)>'}}
    api.patch(f"{PAGES}/{site['home']['id']}/sections/hero", hostile, format="json")
    publish(api)
    body = visit().content.decode()
    assert "<script>alert" not in body and "<img src=x" not in body
    assert "&lt;script&gt;" in body


@pytest.mark.django_db
def test_a_page_costs_the_same_queries_whatever_its_sections(api, organization, club, site, settings):
    settings.WEBSITE_PAGE_CACHE_SECONDS = 0  # measure the rendering, not the page cache
    publish(api)
    visit()
    with CaptureQueriesContext(connection) as few:
        assert visit().status_code == 200
    sections = [HERO, {"type": "plans", "config": {}}, {"type": "class-schedule", "config": {}}] * 7
    sections += [{"type": "contact", "config": {}}] * 5
    api.patch(f"{PAGES}/{site['home']['id']}", {"sections": sections}, format="json")
    publish(api)
    with CaptureQueriesContext(connection) as many:
        assert visit().status_code == 200
    assert len(many) <= len(few) + 3  # plans, classes and clubs once each
    more = [*sections, *sections]
    api.patch(f"{PAGES}/{site['home']['id']}", {"sections": more}, format="json")
    publish(api)
    with CaptureQueriesContext(connection) as twice:
        assert visit().status_code == 200
    assert len(twice) == len(many)


@pytest.mark.django_db
def test_only_get_and_head(api, site):
    publish(api)
    response = Client().post("/", HTTP_HOST=HOST)
    assert response.status_code == 405 and response["Allow"] == "GET, HEAD"
