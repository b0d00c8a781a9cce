"""Custom domains (issue 17, item 2): one normal form, no platform host and nothing under SITE_HOST, unique whatever
the case, and served only after the DNS TXT challenge passes (`POST /websites/{id}/verify-domain` or the admin
action). The DNS is never asked here: `WEBSITE_DOMAIN_TXT_RESOLVER` points at a fake."""

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.test import Client
from django.utils import timezone

from apps.website.domains import DomainLookupFailed, normalize_domain
from apps.website.models import Website

pytestmark = pytest.mark.django_db

BASE = "/v1/platform/website"
PUBLISHED_DNS: dict[str, list[str]] = {}


def fake_txt_records(name: str) -> list[str]:
    records = PUBLISHED_DNS.get(name, [])
    if records == "down":
        raise DomainLookupFailed("timeout")
    return list(records)


@pytest.fixture(autouse=True)
def fake_dns(settings):
    settings.WEBSITE_DOMAIN_TXT_RESOLVER = f"{__name__}.fake_txt_records"
    PUBLISHED_DNS.clear()
    yield PUBLISHED_DNS
    PUBLISHED_DNS.clear()


@pytest.fixture
def admin_client():
    user = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def website(api, organization):
    api.post(f"{BASE}/pages", {"slug": "home", "title": "Home", "sections": []}, format="json")
    assert api.post(f"{BASE}/publish", {}, format="json").status_code == 201
    return Website.objects.get(organization=organization, is_default=True)


def admin_form(website, **changes):
    data = {
        "organization": website.organization_id,
        "name": website.name,
        "slug": website.slug,
        "domain": website.domain or "",
        "is_active": "on",
        "club": "",
    }
    data.update(changes)
    return data


def set_domain(admin_client, website, domain):
    return admin_client.post(f"/admin/website/website/{website.pk}/change/", admin_form(website, domain=domain))


def visit(host, path="/"):
    return Client(raise_request_exception=False).get(path, HTTP_HOST=host)


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("WWW.PadelPalace.Example", "www.padelpalace.example"),
        ("www.padelpalace.example.", "www.padelpalace.example"),
        ("www.padelpalace.example:443", "www.padelpalace.example"),
        ("  Bücher.Example ", "xn--bcher-kva.example"),
    ],
)
def test_the_admin_stores_the_normal_form(admin_client, website, typed, stored):
    response = set_domain(admin_client, website, typed)
    assert response.status_code == 302, response.content.decode()[:3000]
    website.refresh_from_db()
    assert website.domain == stored and website.domain_verified_at is None and website.domain_challenge


@pytest.mark.parametrize(
    "typed",
    [
        "testserver",
        "localhost",
        "sites.localhost",
        "rival.sites.localhost",
        "A.B.SITES.LOCALHOST",
        "market.example.com",
        "api.example.com",
        "auth.example.com",
        "192.168.0.1",
        "https://www.gym.example/",
        "*.gym.example",
        "gym",
        "-gym.example",
        "gym.example/path",
        "user@gym.example",
    ],
)
def test_the_admin_refuses_platform_hosts_and_non_domains(admin_client, website, settings, typed):
    settings.BASE_URL = "https://api.example.com"
    settings.AUTH_URL = "https://auth.example.com"
    settings.MARKETPLACE_URL = "https://market.example.com"
    response = set_domain(admin_client, website, typed)
    assert response.status_code == 200, typed  # the form again, with the error
    assert 'class="errorlist' in response.content.decode()
    assert Website.objects.get(pk=website.pk).domain is None


def test_a_domain_is_unique_whatever_its_case(admin_client, website, other_organization):
    theirs = Website.objects.get(organization=other_organization)
    theirs.domain = "www.rival.example"
    theirs.save()
    response = set_domain(admin_client, website, "WWW.Rival.Example")
    assert response.status_code == 200 and "already exists" in response.content.decode()
    assert Website.objects.get(pk=website.pk).domain is None
    website.domain = "Www.RIVAL.example"
    with pytest.raises(ValidationError):
        website.full_clean()


def test_save_normalises_outside_the_admin_too(website):
    website.domain = "Shop.Example."
    website.save()
    assert Website.objects.get(pk=website.pk).domain == "shop.example"
    with pytest.raises(ValidationError):
        normalize_domain("padel-palace.sites.localhost")


def test_a_custom_domain_is_served_only_after_its_txt_challenge(api, admin_client, website, fake_dns):
    assert set_domain(admin_client, website, "www.padelpalace.example").status_code == 302
    assert visit("www.padelpalace.example").status_code == 400  # not a site yet: Django refuses the unknown host
    assert api.get(BASE).json()["url"] == "https://padel-palace.sites.localhost"
    assert api.get(BASE).json()["domainVerified"] is False

    first = api.post(f"/v1/platform/websites/{website.pk}/verify-domain")
    assert first.status_code == 200, first.content
    body = first.json()
    assert body["result"] == "record_not_found" and body["verified"] is False and body["verifiedAt"] is None
    record = body["record"]
    assert record["type"] == "TXT" and record["name"] == "_site-verification.www.padelpalace.example"
    assert record["value"].startswith("site-verification=")

    fake_dns[record["name"]] = ["some-other=thing", "site-verification=wrong-token"]
    assert api.post(f"/v1/platform/websites/{website.pk}/verify-domain").json()["result"] == "record_not_found"
    fake_dns[record["name"]] = "down"
    assert api.post(f"/v1/platform/websites/{website.pk}/verify-domain").json()["result"] == "lookup_failed"
    assert visit("www.padelpalace.example").status_code == 400

    fake_dns[record["name"]] = ["v=spf1 -all", record["value"]]
    verified = api.post(f"/v1/platform/websites/{website.pk}/verify-domain").json()
    assert verified["result"] == "verified" and verified["verified"] is True and verified["verifiedAt"]
    page = visit("www.padelpalace.example")
    assert page.status_code == 200
    assert '<link rel="canonical" href="https://www.padelpalace.example/">' in page.content.decode()
    assert api.get(BASE).json()["url"] == "https://www.padelpalace.example"

    # Another domain must be proven again (a new token: the old record proves nothing).
    assert set_domain(admin_client, website, "shop.padelpalace.example").status_code == 302
    assert visit("www.padelpalace.example").status_code == 400 and visit("shop.padelpalace.example").status_code == 400
    again = api.post(f"/v1/platform/websites/{website.pk}/verify-domain").json()
    assert again["result"] == "record_not_found" and again["record"]["value"] != record["value"]


def test_verifying_needs_a_domain_and_the_write_scope(api, client_for, website, other_organization):
    response = api.post(f"/v1/platform/websites/{website.pk}/verify-domain")
    assert response.status_code == 409 and response.json()["code"] == "NO_CUSTOM_DOMAIN"
    response = client_for("website:read").post(f"/v1/platform/websites/{website.pk}/verify-domain")
    assert response.status_code == 403 and response.json()["requiredScope"] == "website:write"
    foreign = Website.objects.get(organization=other_organization)
    assert api.post(f"/v1/platform/websites/{foreign.pk}/verify-domain").status_code == 404


def test_the_admin_shows_the_record_and_verifies_it(admin_client, website, fake_dns):
    assert set_domain(admin_client, website, "www.padelpalace.example").status_code == 302
    website.refresh_from_db()
    page = admin_client.get(f"/admin/website/website/{website.pk}/change/").content.decode()
    value = f"site-verification={website.domain_challenge}"
    assert "_site-verification.www.padelpalace.example" in page and value in page and "Not verified" in page
    fake_dns["_site-verification.www.padelpalace.example"] = [value]
    response = admin_client.post(
        "/admin/website/website/",
        {"action": "verify_custom_domain", "_selected_action": [website.pk]},
        follow=True,
    )
    assert "Custom domain www.padelpalace.example: verified" in response.content.decode()
    assert visit("www.padelpalace.example").status_code == 200


def test_a_stored_domain_that_names_a_platform_host_is_never_served(website, settings):
    """Rows written before the checks (or by hand) cannot shadow the platform's own hosts."""
    settings.MARKETPLACE_URL = "https://market.example.com"
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "market.example.com"]
    Website.objects.filter(pk=website.pk).update(domain="market.example.com", domain_verified_at=timezone.now())
    response = visit("market.example.com", "/marketplace/clubs/nope")
    assert response.status_code == 404 and "Padel Palace" not in response.content.decode()
    assert response["Content-Type"].startswith("text/html") and b"<h1>Home" not in response.content


def test_a_verified_custom_domain_gets_the_security_headers_and_its_own_https_redirect(website, settings):
    Website.objects.filter(pk=website.pk).update(domain="www.padelpalace.example", domain_verified_at=timezone.now())
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 600
    redirect = visit("www.padelpalace.example", "/about?x=1")
    assert redirect.status_code == 301 and redirect["Location"] == "https://www.padelpalace.example/about?x=1"
    page = Client().get("/", HTTP_HOST="www.padelpalace.example", secure=True)
    assert page.status_code == 200
    assert page["Strict-Transport-Security"] == "max-age=600" and page["X-Frame-Options"] == "DENY"
    assert "script-src 'none'" in page["Content-Security-Policy"]
