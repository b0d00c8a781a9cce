import itertools

from django.utils import timezone

from apps.organizations.models import ApiKey
from apps.website import services
from apps.website.models import Page, Release, Website
from tests.harness import EndpointCase

_seq = itertools.count()
HERO = {"type": "hero", "config": {"title": "Welcome"}, "translations": {}}  # as the service stores it


def _settle_key_usage(organization):
    ApiKey.objects.filter(organization=organization).update(last_used_at=timezone.now())


def _website(organization):
    return services.ensure_default_website(organization)


def website_ids(organization):
    return {"id": _website(organization).id}


def website_rows(organization, n):
    _settle_key_usage(organization)
    for _ in range(n):
        Website.objects.create(organization=organization, name="Extra", slug=f"extra-site-{next(_seq)}")


def page_ids(organization):
    page = Page.objects.create(
        website=_website(organization), slug=f"page-{next(_seq)}", title="Page", sections=[{**HERO, "htmlId": "hero"}]
    )
    return {"pageId": page.id, "htmlId": "hero"}


def page_rows(organization, n):
    _settle_key_usage(organization)
    website = _website(organization)
    Page.objects.bulk_create(
        [
            Page(website=website, slug=f"p-{next(_seq)}", title="P", sections=[{**HERO, "htmlId": "hero"}])
            for _ in range(n)
        ]
    )


def release_ids(organization):
    website = _website(organization)
    release = services.publish(website, note=None, published_by=("api_key", "key"))
    return {"version": release.version}


def release_rows(organization, n):
    _settle_key_usage(organization)
    website = _website(organization)
    last = Release.objects.filter(website=website).count()
    Release.objects.bulk_create(
        [
            Release(
                website=website,
                version=last + i + 1,
                snapshot={},
                content_hash="x",
                published_at=timezone.now(),
                published_by_type="api_key",
                published_by_name="key",
            )
            for i in range(n)
        ]
    )


BASE = "/v1/platform/website"
CASES = [
    EndpointCase("GET", "/v1/platform/websites", "website:read", list_rows=website_rows),
    EndpointCase("GET", "/v1/platform/websites/{id}", "website:read", setup=website_ids),
    EndpointCase("POST", "/v1/platform/websites/{id}/verify-domain", "website:write", setup=website_ids, body={}),
    EndpointCase("GET", BASE, "website:read"),
    EndpointCase("PATCH", BASE, "website:write", body={}),
    EndpointCase("GET", f"{BASE}/pages", "website:read", list_rows=page_rows),
    EndpointCase("GET", f"{BASE}/pages/{{pageId}}", "website:read", setup=page_ids),
    EndpointCase("POST", f"{BASE}/pages", "website:write", body={"slug": "about", "title": "About"}),
    EndpointCase("PATCH", f"{BASE}/pages/{{pageId}}", "website:write", setup=page_ids, body={}),
    EndpointCase("DELETE", f"{BASE}/pages/{{pageId}}", "website:write", setup=page_ids),
    EndpointCase("GET", f"{BASE}/pages/{{pageId}}/sections", "website:read", setup=page_ids),
    EndpointCase("POST", f"{BASE}/pages/{{pageId}}/sections", "website:write", setup=page_ids, body=HERO),
    EndpointCase("PATCH", f"{BASE}/pages/{{pageId}}/sections/{{htmlId}}", "website:write", setup=page_ids, body={}),
    EndpointCase("DELETE", f"{BASE}/pages/{{pageId}}/sections/{{htmlId}}", "website:write", setup=page_ids),
    EndpointCase("GET", f"{BASE}/section-types", "website:read"),
    EndpointCase("GET", f"{BASE}/layout", "website:read"),
    EndpointCase("PATCH", f"{BASE}/layout", "website:write", body={}),
    EndpointCase("GET", f"{BASE}/styles", "website:read"),
    EndpointCase("PATCH", f"{BASE}/styles", "website:write", body={}),
    EndpointCase("GET", f"{BASE}/seo-settings", "website:read"),
    EndpointCase("PATCH", f"{BASE}/seo-settings", "website:write", body={}),
    EndpointCase("POST", f"{BASE}/publish", "website:publish", body={}),
    EndpointCase("GET", f"{BASE}/releases", "website:read", list_rows=release_rows),
    EndpointCase("GET", f"{BASE}/releases/{{version}}", "website:read", setup=release_ids),
    EndpointCase("POST", f"{BASE}/releases/{{version}}/rollback", "website:publish", setup=release_ids),
]
