"""The per-address limits of every public surface (apps/api/public_limits.py, on django-ratelimit): the gym page,
feeds, the club site and its form pages, invoice PDF links and the marketplace API answer 429 with `Retry-After`
past their limit; the gym page counts against the offer search's limit too; a failing cache lets requests through;
a site's non-canonical paths redirect before the page cache is consulted."""

from types import SimpleNamespace

import django_ratelimit.core
import pytest
from django.test import Client

from apps.api import public_limits, ratelimit
from apps.clubs.models import Club
from apps.website import services as website_services
from apps.website.public.render import SiteRenderer

SITE_HOST = "padel-palace.sites.localhost"
OFFERS = "/v1/public/network/search/offers"
PAGES = "/v1/platform/website/pages"


@pytest.fixture(autouse=True)
def one_window(monkeypatch):
    """Every request of a test falls in one rate-limit window."""
    monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=lambda: 1_000_000_020))


@pytest.fixture
def small_limits(settings):
    settings.RATE_LIMIT_MULTIPLIER = 0.1  # gym pages and feeds 12, offers 3, site 30, PDFs 3 a minute
    return settings


@pytest.fixture
def listed(club):
    Club.objects.filter(pk=club.pk).update(marketplace_listed=True)
    club.refresh_from_db()
    return club


def _surfaces(club):
    """(name, binding group, request) for each public surface."""
    return [
        ("gym page", public_limits.MARKETPLACE_OFFERS, lambda c: c.get(f"/marketplace/clubs/{club.slug}")),
        ("gym page 404", public_limits.MARKETPLACE_OFFERS, lambda c: c.get("/marketplace/clubs/nope")),
        (
            "classes.ics",
            public_limits.MARKETPLACE_PAGES,
            lambda c: c.get(f"/marketplace/clubs/{club.slug}/classes.ics"),
        ),
        ("instructor feed", public_limits.MARKETPLACE_PAGES, lambda c: c.get("/feeds/instructors/forged.ics")),
        ("site page", public_limits.SITE, lambda c: c.get("/", HTTP_HOST=SITE_HOST)),
        ("form page", public_limits.SITE, lambda c: c.get("/forms/contact", HTTP_HOST=SITE_HOST)),
        ("invoice pdf", public_limits.INVOICE_PDF, lambda c: c.get("/v1/invoices/pdf/forged")),
        ("marketplace profile", public_limits.MARKETPLACE, lambda c: c.get(f"/v1/public/network/clubs/{club.slug}")),
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("surface", range(8), ids=[s[0] for s in _surfaces(SimpleNamespace(slug="x"))])
def test_every_public_surface_has_a_per_address_limit(small_limits, organization, listed, surface):
    website_services.ensure_default_website(organization)
    name, group, call = _surfaces(listed)[surface]
    limit = public_limits.limit_of(group)
    visitor = Client(REMOTE_ADDR="198.51.100.7")
    for _ in range(limit):
        assert call(visitor).status_code != 429, name

    refused = call(visitor)

    assert refused.status_code == 429, name
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert refused["RateLimit-Limit"] == str(limit)
    assert refused["RateLimit-Remaining"] == "0"
    assert refused["RateLimit-Reset"] == refused["Retry-After"]
    assert refused["Cache-Control"] == "no-store"
    # Another address has its own count.
    assert call(Client(REMOTE_ADDR="198.51.100.8")).status_code != 429, name


@pytest.mark.django_db
def test_the_refusals_speak_each_surfaces_language(small_limits, organization, listed):
    website_services.ensure_default_website(organization)
    visitor = Client()
    for _ in range(public_limits.limit_of(public_limits.INVOICE_PDF) + 1):
        pdf = visitor.get("/v1/invoices/pdf/forged")
    assert pdf.status_code == 429 and pdf["Content-Type"] == "application/json"
    assert pdf.json()["code"] == "RATE_LIMITED"
    assert pdf.json()["details"] == {"bucket": "invoice-pdf", "limit": 3, "windowSeconds": 60}
    for _ in range(public_limits.limit_of(public_limits.SITE) + 1):
        site = visitor.get("/about", HTTP_HOST=SITE_HOST)
    assert site.status_code == 429 and site["Content-Type"].startswith("text/html")
    assert "Too many requests" in site.content.decode()


@pytest.mark.django_db
def test_the_gym_page_counts_against_the_offer_searchs_limit(small_limits, listed):
    limit = public_limits.limit_of(public_limits.MARKETPLACE_OFFERS)
    assert limit == 3
    visitor = Client()
    for _ in range(limit):
        assert visitor.get(f"/marketplace/clubs/{listed.slug}").status_code == 200
    search = visitor.post(OFFERS, {"lat": 40.4, "lng": -3.7, "date": "2030-01-01"}, content_type="application/json")
    assert search.status_code == 429
    assert search.json() == {"error": "Too many requests"}

    # And the other way round, for another address.
    other = Client(REMOTE_ADDR="203.0.113.50")
    for _ in range(limit):
        body = {"lat": 40.4, "lng": -3.7, "date": "2030-01-01"}
        assert other.post(OFFERS, body, content_type="application/json").status_code in (200, 400)
    assert other.get(f"/marketplace/clubs/{listed.slug}").status_code == 429


@pytest.mark.django_db
def test_a_failing_cache_lets_public_requests_through(monkeypatch, listed):
    def broken(*args, **kwargs):
        raise ConnectionError("cache down")

    monkeypatch.setattr(public_limits, "get_usage", broken)
    before = ratelimit.fail_open_count()
    assert Client().get(f"/marketplace/clubs/{listed.slug}/classes.ics").status_code == 200
    assert ratelimit.fail_open_count() == before + 1


@pytest.mark.django_db
def test_non_canonical_site_paths_redirect_before_the_page_cache(api, organization, monkeypatch, settings):
    settings.WEBSITE_PAGE_CACHE_SECONDS = 30
    api.post(PAGES, {"slug": "home", "title": "Home"}, format="json")
    api.post(PAGES, {"slug": "about", "title": "About us"}, format="json")
    assert api.post("/v1/platform/website/publish", {}, format="json").status_code == 201
    renders = []
    original = SiteRenderer._serve
    monkeypatch.setattr(SiteRenderer, "_serve", lambda self, path: renders.append(path) or original(self, path))
    visitor = Client(HTTP_HOST=SITE_HOST)

    def get(raw, **extra):
        # The test client would read `//about//` as a host; a browser sends it as the path.
        path, _, query = raw.partition("?")
        return visitor.get("/", PATH_INFO=path, QUERY_STRING=query, **extra)

    for path, canonical in (
        ("/about/", "/about"),
        ("//about//", "/about"),
        ("/about//?utm=x", "/about?utm=x"),
        ("/es", "/es/"),
        ("//", "/"),
        ("//evil.example//", "/evil.example"),  # never a scheme-relative Location
        ("//\\evil.example/", "/%5Cevil.example"),  # nor one a browser reads as such (`/\evil`)
    ):
        response = get(path)
        assert response.status_code == 301, path
        assert response["Location"] == canonical, path
    assert renders == []  # a redirect renders nothing and stores nothing

    for path in ("/about", "/about/", "//about//", "/about", "//about"):
        response = get(path)
        if response.status_code == 301:
            response = get(response["Location"])
        assert response.status_code == 200 and "About us" in response.content.decode()
    assert renders == ["/about"]  # one render, one cache entry, for the five addresses
