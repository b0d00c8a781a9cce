"""Security headers on every public page (issue 17, item 8): site hosts were answered before Django's
SecurityMiddleware and clickjacking middleware, so club sites and form pages had no HSTS, HTTPS redirect,
X-Frame-Options or Content-Security-Policy. Site pages, form pages, the marketplace pages and feeds all carry them."""

import re

import pytest
from django.test import Client

from apps.clubs.models import Club

pytestmark = pytest.mark.django_db

HOST = "padel-palace.sites.localhost"
BASE = "/v1/platform/website"


@pytest.fixture
def published(api):
    api.post(f"{BASE}/pages", {"slug": "home", "title": "Home", "sections": []}, format="json")
    assert api.post(f"{BASE}/publish", {}, format="json").status_code == 201


@pytest.fixture
def form_path(api):
    body = {"name": "Trial", "questions": [{"type": "text", "label": "Name", "required": True}]}
    return api.post("/v1/platform/forms", body, format="json").json()["url"].split(HOST, 1)[1]


@pytest.fixture
def tls(settings):
    settings.SECURE_HSTS_SECONDS = 31536000
    settings.SECURE_SSL_REDIRECT = True


def assert_public_page_headers(response, *, hsts: bool):
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"]
    csp = response["Content-Security-Policy"]
    assert "script-src 'none'" in csp and "frame-ancestors 'none'" in csp and "default-src 'none'" in csp
    assert ("Strict-Transport-Security" in response) is hsts
    if hsts:
        assert response["Strict-Transport-Security"] == "max-age=31536000"


def public_paths(form_path, club):
    Club.objects.filter(pk=club.pk).update(marketplace_listed=True)
    return [
        (HOST, "/"),
        (HOST, "/sitemap.xml"),
        (HOST, "/no-such-page"),
        (HOST, form_path),
        ("nobody.sites.localhost", "/"),
        ("testserver", f"/marketplace/clubs/{club.slug}"),
        ("testserver", f"/marketplace/clubs/{club.slug}/classes.ics"),
        ("testserver", "/marketplace/clubs/no-such-club"),
    ]


def test_every_public_page_carries_the_security_headers_over_https(published, form_path, club, tls):
    for host, path in public_paths(form_path, club):
        response = Client().get(path, HTTP_HOST=host, secure=True)
        assert response.status_code in (200, 404), (host, path, response.status_code)
        assert_public_page_headers(response, hsts=True)


def test_plain_http_is_redirected_to_https_on_the_sites_own_host(published, form_path, club, tls):
    for host, path in public_paths(form_path, club):
        response = Client().get(path + "?locale=es", HTTP_HOST=host)
        assert response.status_code == 301, (host, path)
        assert response["Location"] == f"https://{host}{path}?locale=es"


def test_a_port_or_user_part_in_the_host_never_leaves_the_site(published, tls):
    response = Client().get("/about", HTTP_HOST=f"{HOST}:80@evil.example")
    assert response.status_code == 301 and response["Location"] == f"https://{HOST}/about"


def test_without_tls_settings_there_is_no_redirect_and_no_hsts_but_the_other_headers(published, form_path, club):
    for host, path in public_paths(form_path, club):
        response = Client().get(path, HTTP_HOST=host)
        assert response.status_code in (200, 404), (host, path, response.status_code)
        assert_public_page_headers(response, hsts=False)


def test_the_form_page_post_keeps_the_headers(form_path, tls):
    visitor = Client(HTTP_HOST=HOST)
    page = visitor.get(form_path, secure=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.content.decode())[1]
    response = visitor.post(form_path, {"csrf_token": token, "q1": ""}, secure=True)
    assert response.status_code == 400
    assert_public_page_headers(response, hsts=True)
