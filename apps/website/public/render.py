"""Rendering a website for visitors: the served release (or, through a preview link, the draft) as HTML pages,
`sitemap.xml` and `robots.txt`, with locale prefixes, canonical and hreflang links, theme tokens as CSS variables,
and cache headers keyed on the release.

A page costs a constant number of queries whatever its sections: the website (by host), then one query per kind
of live data the page shows (plans, classes, clubs).
"""

import hashlib
from decimal import Decimal
from xml.sax.saxutils import escape

import nh3
from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from apps.organizations.choices import OrganizationStatus
from apps.pricing.quote import currency_exponent, round_money

from ..links import page_path, read_preview_token, site_url
from ..services import draft_snapshot
from ..theme import seo_settings_of, styles_of
from .labels import labels_for
from .live import LiveData

CURRENCY_SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£", "JPY": "¥"}
PUBLIC_CACHE = "public, max-age=60"
SAFE_METHODS = ("GET", "HEAD")


def not_found() -> HttpResponse:
    response = HttpResponse(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head>'
        "<body><main><h1>Not found</h1><p>There is no page at this address.</p></main></body></html>",
        status=404,
        content_type="text/html; charset=utf-8",
    )
    response["Cache-Control"] = "no-store"
    return response


def money(organization, amount) -> str:
    exponent = currency_exponent(organization.currency)
    value = round_money(Decimal(amount), exponent)
    text = f"{value:,.{exponent}f}"
    symbol = CURRENCY_SYMBOLS.get(organization.currency)
    return f"{symbol}{text}" if symbol else f"{text} {organization.currency}"


def _translated(fields: dict, translations: dict | None, locale: str, default_language: str) -> dict:
    if locale == default_language:
        return dict(fields)
    return {**fields, **{k: v for k, v in ((translations or {}).get(locale) or {}).items() if v}}


class SiteRenderer:
    def __init__(self, request, website, snapshot: dict, *, preview_base: str | None = None, version=None):
        self.request = request
        self.website = website
        self.organization = website.organization
        self.snapshot = snapshot
        self.preview_base = preview_base  # "/_preview/<token>" when rendering the draft
        self.version = version
        self.base_url = site_url(website.slug, website.domain)
        self.languages = self.organization.languages
        self.default_language = self.organization.default_language

    # --- addressing -------------------------------------------------------------------------------------------

    def split_locale(self, path: str) -> tuple[str, str]:
        parts = [part for part in path.strip("/").split("/") if part]
        if parts and parts[0] in self.languages and parts[0] != self.default_language:
            return parts[0], "/".join(parts[1:])
        return self.default_language, "/".join(parts)

    def page_url(self, page: dict, locale: str) -> str:
        prefix = self.preview_base or ""
        path = page_path(page["slug"], page["isHomepage"], locale, self.default_language)
        return (prefix + path) if self.preview_base else self.base_url + path

    def find_page(self, slug: str) -> dict | None:
        for page in self.snapshot["pages"]:
            if (not slug and page["isHomepage"]) or (slug and page["slug"] == slug):
                return page
        return None

    # --- responses ----------------------------------------------------------------------------------------------

    def respond(self, body: str, content_type="text/html; charset=utf-8", status=200) -> HttpResponse:
        encoded = body.encode()
        etag = f'W/"{self.version or "draft"}-{hashlib.sha256(encoded).hexdigest()[:20]}"'
        if self.preview_base is None and self.request.headers.get("If-None-Match") == etag:
            response = HttpResponse(status=304)
        else:
            response = HttpResponse(encoded, content_type=content_type, status=status)
        if self.preview_base is None:
            response["ETag"] = etag
            response["Cache-Control"] = PUBLIC_CACHE
            response["X-Website-Release"] = str(self.version)
        else:
            response["Cache-Control"] = "private, no-store"
            response["X-Robots-Tag"] = "noindex, nofollow"
        response["X-Content-Type-Options"] = "nosniff"
        response["Referrer-Policy"] = "strict-origin-when-cross-origin"
        response["Vary"] = "Accept-Encoding"
        return response

    def serve(self, path: str) -> HttpResponse:
        """The response for `path`. A rendered release page is kept in the shared cache for
        `WEBSITE_PAGE_CACHE_SECONDS` (keyed on the release and the path), so live data shows within that time."""
        seconds = settings.WEBSITE_PAGE_CACHE_SECONDS
        if self.preview_base is not None or not seconds:
            return self._serve(path)
        key = f"website:page:{self.website.pk}:{self.version}:{hashlib.sha256(path.encode()).hexdigest()[:24]}"
        cached = cache.get(key)
        if cached is not None:
            body, content_type = cached
            return self.respond(body, content_type)
        response = self._serve(path)
        if response.status_code == 200:
            cache.set(key, (response.content.decode(), response["Content-Type"]), seconds)
        return response

    def _serve(self, path: str) -> HttpResponse:
        if self.preview_base is None and path == "/sitemap.xml":
            return self.respond(self.sitemap(), "application/xml; charset=utf-8")
        if self.preview_base is None and path == "/robots.txt":
            return self.respond(f"User-agent: *\nAllow: /\nSitemap: {self.base_url}/sitemap.xml\n", "text/plain")
        locale, slug = self.split_locale(path)
        page = self.find_page(slug)
        if page is None:
            return not_found()
        return self.respond(self.render_page(page, locale))

    # --- pages -------------------------------------------------------------------------------------------------

    def sitemap(self) -> str:
        lines = [
            '<?xml version="1.0" encoding="UTF-8"?>',
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
        ]
        for page in self.snapshot["pages"]:
            if page["noindex"]:
                continue
            lines.append(f"  <url><loc>{escape(self.page_url(page, self.default_language))}</loc>")
            for language in self.languages:
                href = escape(self.page_url(page, language))
                lines.append(f'    <xhtml:link rel="alternate" hreflang="{language}" href="{href}"/>')
            lines.append("  </url>")
        lines.append("</urlset>")
        return "\n".join(lines) + "\n"

    def section_context(self, section: dict, locale: str, live: LiveData, labels: dict) -> dict:
        config = _translated(section["config"], section.get("translations"), locale, self.default_language)
        context = {"type": section["type"], "id": section["htmlId"], "c": config}
        kind = section["type"]
        if kind == "text":
            context["body"] = mark_safe(nh3.clean(config.get("body") or ""))  # noqa: S308 - sanitized just now
        elif kind == "plans":
            context["plans"] = [
                {
                    "name": (plan.translations or {}).get(locale, {}).get("name") or plan.name,
                    "description": (plan.translations or {}).get(locale, {}).get("description") or plan.description,
                    "price": money(self.organization, plan.price),
                    "frequency": labels["frequency"].get(plan.billing_frequency, ""),
                    "signup_fee": money(self.organization, plan.signup_fee) if plan.signup_fee else None,
                    "features": plan.features if config.get("showFeatures") else [],
                }
                for plan in live.plans_for(config)
            ]
        elif kind == "class-schedule":
            context["classes"] = live.classes_for(config)
        elif kind in ("contact", "header", "footer"):
            context["club"] = live.club_for(config)
        return context

    def render_page(self, page: dict, locale: str) -> str:
        labels = labels_for(locale)
        layout = self.snapshot.get("layout") or {}
        header, footer = layout.get("header"), layout.get("footer")
        sections = list(page["sections"])
        live = LiveData(self.website, [*sections, *(s for s in (header, footer) if s)])
        seo = seo_settings_of(self.snapshot.get("seoSettings"), self.website.name)
        page_translation = (page.get("translations") or {}).get(locale) or {}
        meta_title = page_translation.get("metaTitle") or page.get("metaTitle") or page["title"]
        description = page_translation.get("metaDescription") or page.get("metaDescription") or seo["siteDescription"]
        styles = styles_of(self.snapshot.get("styles"))
        logo = None
        if self.website.club_id and self.website.club and self.website.club.logo:
            logo = self.website.club.logo
        context = {
            "lang": locale,
            "site_name": self.website.name,
            "title": seo["titleTemplate"].replace("%s", meta_title),
            "description": description,
            "og_image": page.get("ogImage") or seo["defaultOgImage"],
            "favicon": seo["favicon"],
            "canonical": self.page_url(page, locale),
            "alternates": [(language, self.page_url(page, language)) for language in self.languages],
            "noindex": page["noindex"] or self.preview_base is not None,
            "styles": styles,
            "labels": labels,
            "home_url": self.page_url(self.find_page("") or page, locale),
            "logo": logo,
            "header": self.section_context(header, locale, live, labels) if header else None,
            "footer": self.section_context(footer, locale, live, labels) if footer else None,
            "sections": [self.section_context(section, locale, live, labels) for section in sections],
            "page_title": page["title"],
            "preview": self.preview_base is not None,
        }
        return render_to_string("website/page.html", context)


def serve_site(request, website) -> HttpResponse:
    """The response of a website's host for `request` (GET and HEAD only)."""
    if request.method not in SAFE_METHODS:
        response = HttpResponse(status=405)
        response["Allow"] = "GET, HEAD"
        return response
    path = request.path
    if website.organization.status != OrganizationStatus.ACTIVE:
        return not_found()
    if path.startswith("/_preview/"):
        token, _, rest = path[len("/_preview/") :].partition("/")
        if read_preview_token(token) != website.pk:
            return not_found()
        renderer = SiteRenderer(request, website, draft_snapshot(website), preview_base=f"/_preview/{token}")
        return renderer.serve("/" + rest)
    release = website.active_release
    if not website.is_active or release is None:
        return not_found()
    return SiteRenderer(request, website, release.snapshot, version=release.version).serve(path)
