"""Rendering a website for visitors: the served release (or, through a preview link, the draft) as HTML pages,
`sitemap.xml` and `robots.txt`, with locale prefixes, canonical and hreflang links, theme tokens as CSS variables,
and cache headers keyed on the release.

A page costs a constant number of queries whatever its sections: the website (by host), then one query per kind
of live data the page shows (plans, classes, clubs).
"""

import hashlib
import xml.etree.ElementTree as ET  # noqa: N817 - writing only, never parsing

import nh3
from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse, HttpResponsePermanentRedirect
from django.template.loader import render_to_string
from django.utils.encoding import escape_uri_path
from django.utils.safestring import mark_safe

from apps.api import public_limits
from apps.api.public_limits import limit_public
from apps.api.validators import web_links
from apps.content.choices import ContentItemType
from apps.forms.public import form_route, serve_form_page
from apps.kernel.money import format_money
from apps.kernel.words import in_language
from apps.organizations.choices import OrganizationStatus

from ..links import page_path, read_preview_token, site_url
from ..services import draft_snapshot
from ..theme import seo_settings_of, styles_of
from .labels import LABELS
from .live import LiveData, in_locale, public_content

PUBLIC_CACHE = "public, max-age=60"
SAFE_METHODS = ("GET", "HEAD")
BLOG = "blog"
BLOG_TYPES = (ContentItemType.POST, ContentItemType.HOW_TO_GUIDE)
MAX_BLOG_POSTS = 50
SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
XHTML_NS = "http://www.w3.org/1999/xhtml"


def not_found() -> HttpResponse:
    response = HttpResponse(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head>'
        "<body><main><h1>Not found</h1><p>There is no page at this address.</p></main></body></html>",
        status=404,
        content_type="text/html; charset=utf-8",
    )
    response["Cache-Control"] = "no-store"
    return response


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
        self.base_url = site_url(website.slug, website.served_domain)
        self.languages = self.organization.languages
        self.default_language = self.organization.default_language

    # --- addressing -------------------------------------------------------------------------------------------

    def split_locale(self, path: str) -> tuple[str, str]:
        parts = [part for part in path.strip("/").split("/") if part]
        if parts and parts[0] in self.languages and parts[0] != self.default_language:
            return parts[0], "/".join(parts[1:])
        return self.default_language, "/".join(parts)

    def page_url(self, page: dict, locale: str) -> str:
        path = page_path(page["slug"], page["isHomepage"], locale, self.default_language)
        return (self.preview_base or self.base_url) + path

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
        response["Vary"] = "Accept-Encoding"  # nosniff and the referrer policy: the site chain's (page_security)
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
        if page is not None:
            return self.respond(self.render_page(page, locale))
        if slug == BLOG:
            return self.respond(self.render_blog(locale))
        if slug.startswith(BLOG + "/") and "/" not in slug[len(BLOG) + 1 :]:
            post = self.find_post(slug[len(BLOG) + 1 :])
            if post is not None:
                return self.respond(self.render_post(post, locale))
        return not_found()

    # --- pages -------------------------------------------------------------------------------------------------

    def sitemap(self) -> str:
        """Built with an XML writer, so no stored value (a page slug, a language) can break out of its text or
        attribute."""
        ET.register_namespace("", SITEMAP_NS)
        ET.register_namespace("xhtml", XHTML_NS)
        urlset = ET.Element(f"{{{SITEMAP_NS}}}urlset")
        for page in self.snapshot["pages"]:
            if page["noindex"]:
                continue
            url = ET.SubElement(urlset, f"{{{SITEMAP_NS}}}url")
            ET.SubElement(url, f"{{{SITEMAP_NS}}}loc").text = self.page_url(page, self.default_language)
            for language in self.languages:
                ET.SubElement(
                    url,
                    f"{{{XHTML_NS}}}link",
                    {"rel": "alternate", "hreflang": language, "href": self.page_url(page, language)},
                )
        ET.indent(urlset)
        return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(urlset, encoding="unicode") + "\n"

    def section_context(self, section: dict, locale: str, live: LiveData, labels: dict) -> dict:
        config = _translated(section["config"], section.get("translations"), locale, self.default_language)
        context = {"type": section["type"], "id": section["htmlId"], "c": config}
        kind = section["type"]
        currency = self.organization.currency
        if kind == "text":
            context["body"] = mark_safe(nh3.clean(config.get("body") or ""))  # noqa: S308 - sanitized just now
        elif kind == "plans":
            context["plans"] = [
                {
                    "name": (plan.translations or {}).get(locale, {}).get("name") or plan.name,
                    "description": (plan.translations or {}).get(locale, {}).get("description") or plan.description,
                    "price": format_money(plan.price, currency, locale),
                    "frequency": labels["frequency"].get(plan.billing_frequency, ""),
                    "signup_fee": format_money(plan.signup_fee, currency, locale) if plan.signup_fee else None,
                    "features": plan.features if config.get("showFeatures") else [],
                }
                for plan in live.plans_for(config)
            ]
        elif kind == "class-schedule":
            context["classes"] = live.classes_for(config)
        elif kind in ("contact", "header", "footer"):
            context["club"] = live.club_for(config)
            context["social"] = web_links(context["club"].social_profiles) if context["club"] else {}
            if kind == "contact":
                context["form"] = live.form_for(config, locale)
        elif kind == "faq":
            context["faqs"] = [
                {"title": item.title, "answer": mark_safe(nh3.clean(item.html or item.excerpt or ""))}  # noqa: S308
                for item in live.faqs_for(config, locale)
            ]
        elif kind == "gallery":
            context["media"] = live.media_for(config)
        elif kind == "events":
            context["events"] = [
                {
                    **row,
                    "name": ((row["event"].translations or {}).get(locale) or {}).get("name") or row["event"].name,
                    "price": None
                    if row["from_price"] is None
                    else format_money(self.organization.tax_inclusive(row["from_price"]), currency, locale),
                    "free": row["from_price"] == 0,
                }
                for row in live.events_for(config)
            ]
        return context

    def base_context(self, locale: str, live: LiveData, *, title: str, description, og_image, path_of) -> dict:
        """What every rendered page shares: head tags, theme, header, footer and the language switch.
        `path_of(language)` is the address of this same page in `language`."""
        labels = in_language(LABELS, locale)
        layout = self.snapshot.get("layout") or {}
        header, footer = layout.get("header"), layout.get("footer")
        seo = seo_settings_of(self.snapshot.get("seoSettings"), self.website.name)
        logo = None
        if self.website.club_id and self.website.club and self.website.club.logo:
            logo = self.website.club.logo
        home = self.find_page("")
        return {
            "lang": locale,
            "site_name": self.website.name,
            "title": seo["titleTemplate"].replace("%s", title),
            "description": description or seo["siteDescription"],
            "og_image": og_image or seo["defaultOgImage"],
            "favicon": seo["favicon"],
            "canonical": path_of(locale),
            "alternates": [(language, path_of(language)) for language in self.languages],
            "noindex": self.preview_base is not None,
            "styles": styles_of(self.snapshot.get("styles")),
            "labels": labels,
            "home_url": self.page_url(home, locale) if home else self.address("/", locale),
            "logo": logo,
            "header": self.section_context(header, locale, live, labels) if header else None,
            "footer": self.section_context(footer, locale, live, labels) if footer else None,
            "preview": self.preview_base is not None,
        }

    def address(self, path: str, locale: str) -> str:
        """The public (or preview) address of a site path in `locale`."""
        prefix = "" if locale == self.default_language else f"/{locale}"
        full = prefix + path if path != "/" else (prefix + "/" if prefix else "/")
        return (self.preview_base or self.base_url) + full

    def layout_sections(self) -> list[dict]:
        layout = self.snapshot.get("layout") or {}
        return [section for section in (layout.get("header"), layout.get("footer")) if section]

    def render_page(self, page: dict, locale: str) -> str:
        sections = list(page["sections"])
        live = LiveData(self.website, [*sections, *self.layout_sections()])
        page_translation = (page.get("translations") or {}).get(locale) or {}
        context = self.base_context(
            locale,
            live,
            title=page_translation.get("metaTitle") or page.get("metaTitle") or page["title"],
            description=page_translation.get("metaDescription") or page.get("metaDescription"),
            og_image=page.get("ogImage"),
            path_of=lambda language: self.page_url(page, language),
        )
        labels = context["labels"]
        context["noindex"] = context["noindex"] or page["noindex"]
        context["sections"] = [self.section_context(section, locale, live, labels) for section in sections]
        context["page_title"] = page["title"]
        return render_to_string("website/page.html", context)

    # --- the blog: published, public posts and how-to guides (content items), live -------------------------------

    def find_post(self, slug: str):
        return (
            public_content(self.organization)
            .filter(type__in=BLOG_TYPES, slug=slug)
            .select_related("author")
            .order_by("type", "id")
            .first()
        )

    def render_post(self, post, locale: str) -> str:
        live = LiveData(self.website, self.layout_sections())
        context = self.base_context(
            locale,
            live,
            title=post.meta_title or post.title,
            description=post.meta_description or post.excerpt,
            og_image=(post.images or [None])[0],
            path_of=lambda language: self.address(f"/{BLOG}/{post.slug}", language),
        )
        author = post.author
        context["post"] = {
            "title": post.title,
            "excerpt": post.excerpt,
            "published_at": post.published_at,
            "author_name": author.get_full_name() if author is not None else "",
        }
        context["body"] = mark_safe(nh3.clean(post.html or ""))  # noqa: S308 - sanitized just now
        return render_to_string("website/post.html", context)

    def render_blog(self, locale: str) -> str:
        live = LiveData(self.website, self.layout_sections())
        labels = in_language(LABELS, locale)
        context = self.base_context(
            locale,
            live,
            title=labels["blog"],
            description=None,
            og_image=None,
            path_of=lambda language: self.address(f"/{BLOG}", language),
        )
        posts = (
            public_content(self.organization)
            .filter(type__in=BLOG_TYPES)
            .only("id", "title", "slug", "excerpt", "language", "published_at")
            .order_by("-published_at", "-id")[:MAX_BLOG_POSTS]
        )
        context["posts"] = [
            {"title": post.title, "excerpt": post.excerpt, "url": self.address(f"/{BLOG}/{post.slug}", locale)}
            for post in in_locale(list(posts), locale, self.default_language)
        ]
        return render_to_string("website/blog.html", context)


def canonical_path(path: str, organization) -> str:
    """The one address of what `path` routes to: empty segments dropped (`/about/` and `//about//` are `/about`),
    a non-default locale's homepage `/<locale>/` (as `page_path` writes it)."""
    parts = [part for part in path.split("/") if part]
    if not parts:
        return "/"
    if len(parts) == 1 and parts[0] in organization.languages and parts[0] != organization.default_language:
        return f"/{parts[0]}/"
    return "/" + "/".join(parts)


@limit_public(public_limits.SITE)
def serve_site(request, website) -> HttpResponse:
    """The response of a website's host for `request` (GET and HEAD only; a form page also takes POST).

    Every request to the host counts against the `site` per-address limit. A GET or HEAD of a non-canonical path
    is redirected (301) to the canonical one first, so each page has one page-cache entry and one address.
    Form pages (`/forms/<slug>`, `/<locale>/forms/<slug>`) are live, not part of a release: `apps.forms` serves them.
    """
    if request.method in SAFE_METHODS and not request.path.startswith("/_preview/"):
        canonical = canonical_path(request.path, website.organization)
        if canonical != request.path:
            query = request.META.get("QUERY_STRING", "")
            response = HttpResponsePermanentRedirect(escape_uri_path(canonical) + (f"?{query}" if query else ""))
            response["Cache-Control"] = PUBLIC_CACHE
            return response
    route = form_route(request.path)
    if route is not None:
        return serve_form_page(request, website, *route)
    if request.method not in SAFE_METHODS:
        response = HttpResponse(status=405)
        response["Allow"] = "GET, HEAD"
        return response
    path = request.path
    if website.organization.status != OrganizationStatus.ACTIVE:
        return not_found()
    if path.startswith("/_preview/"):
        token, _, rest = path[len("/_preview/") :].partition("/")
        if read_preview_token(token) != (website.pk, website.organization.link_epoch):
            return not_found()
        renderer = SiteRenderer(request, website, draft_snapshot(website), preview_base=f"/_preview/{token}")
        return renderer.serve("/" + rest)
    release = website.active_release
    if not website.is_active or release is None:
        return not_found()
    return SiteRenderer(request, website, release.snapshot, version=release.version).serve(path)
