"""Website shapes: the website record, pages (a list item and the single fetch with `sections`, `translations`
and the read-only `seo`), sections, section types, layout, styles, SEO settings and releases.

A page of websites or pages is one query: the website's active release and the organization's languages are
joined columns, and a page's sections live on its row.
"""

import datetime as dt
from typing import Annotated, TypedDict

from apps.api.resources import Describe, PresentContext, Resource

from . import models
from .choices import ButtonStyle, DomainCheck, NotIndexableReason, PublisherType, SectionPlacement
from .domains import challenge_record
from .links import page_path, preview_url, site_url
from .theme import seo_settings_of, styles_of


class Website(TypedDict):
    id: int
    name: Annotated[str, Describe("Live: takes effect without a publish.")]
    slug: Annotated[str, Describe("Platform host label: the site answers on `<slug>.{site_host}`.")]
    domain: Annotated[
        str | None,
        Describe(
            "Custom domain, in its normal form (lower case, IDNA). Set by staff; served only once verified "
            "(`POST /websites/{id}/verify-domain`)."
        ),
    ]
    domainVerified: Annotated[bool, Describe("Whether `domain` passed its DNS TXT challenge and is served.")]
    isDefault: Annotated[bool, Describe("Exactly one website per organization is the default.")]
    isActive: Annotated[bool, Describe("False: the website serves nothing publicly.")]
    clubId: Annotated[int | None, Describe("Live: header and footer use this club's logo.")]
    url: Annotated[str, Describe("The custom domain once verified, else the platform host.")]
    previewUrl: Annotated[str, Describe("Opens the draft without a sign-in; a signed link valid for 24 hours.")]
    published: Annotated[bool, Describe("Whether a release is served.")]
    activeReleaseVersion: int | None
    lastPublishedAt: Annotated[dt.datetime | None, Describe("When the served release was published.")]
    hasUnpublishedChanges: Annotated[bool, Describe("True exactly when the draft differs from the served release.")]
    defaultLanguage: str
    languages: Annotated[list[str], Describe("The default language first, then the other offered languages.")]


class Section(TypedDict):
    type: Annotated[str, Describe("One of the types of `GET /v1/platform/website/section-types`.")]
    htmlId: Annotated[str, Describe("Anchor, unique within the page; ^[a-z][a-z0-9-]*$.")]
    config: Annotated[dict, Describe("Fields depend on `type` (its `configSchema`).")]
    translations: Annotated[
        dict, Describe("{locale: {field: text}} overrides of the type's translatable string fields.")
    ]


class PageSeo(TypedDict):
    metaTitle: Annotated[str, Describe("Falls back to the page title.")]
    metaDescription: Annotated[str | None, Describe("Falls back to `seoSettings.siteDescription`.")]
    ogImage: Annotated[str | None, Describe("Falls back to `seoSettings.defaultOgImage`.")]
    canonicalUrl: Annotated[str, Describe("The page's address in the requested (else default) locale.")]
    indexable: bool
    notIndexableReason: NotIndexableReason | None
    localizedLocales: Annotated[list[str], Describe("Locales with translations on this page or its sections.")]


class WebsitePageSummary(TypedDict):
    id: int
    slug: str
    title: str
    isHomepage: bool
    sectionCount: int
    sectionTypes: Annotated[list[str], Describe("The types of the page's sections, in page order.")]
    metaTitle: str | None
    metaDescription: str | None
    ogImage: str | None
    noindex: bool
    url: Annotated[str, Describe("The page's public address once published (the homepage is `/`).")]


class WebsitePage(WebsitePageSummary):
    sections: list[Section]
    translations: Annotated[dict | None, Describe("{locale: {metaTitle, metaDescription}}.")]
    seo: PageSeo


class SectionTypeDefinition(TypedDict):
    type: str
    name: str
    description: str
    configSchema: Annotated[dict, Describe("JSON Schema (2020-12) of the section's `config`.")]
    translatableFields: list[str]
    allowedIn: list[SectionPlacement]


class WebsiteLayout(TypedDict):
    header: Section | None
    footer: Section | None


class StyleColors(TypedDict):
    primary: str
    secondary: str
    accent: str
    background: str
    text: str


class StyleTypography(TypedDict):
    headingFont: str
    bodyFont: str
    baseSize: str


class WebsiteStyles(TypedDict):
    colors: StyleColors
    typography: StyleTypography
    radius: str
    buttonStyle: ButtonStyle


class SeoSettings(TypedDict):
    siteTitle: Annotated[str, Describe("Defaults to the website's name.")]
    siteDescription: str | None
    defaultOgImage: str | None
    titleTemplate: Annotated[str, Describe("`%s` stands for the page's title, e.g. `%s | Acme Gym`.")]
    favicon: str | None


class Publisher(TypedDict):
    type: PublisherType
    name: str


class Release(TypedDict):
    version: int
    note: str | None
    publishedAt: dt.datetime
    publishedBy: Publisher
    isActive: Annotated[bool, Describe("Whether this release is the one served.")]


# Besides the shape's own columns (`id`, `name`, `slug`, `domain`, ...), which every resource reads.
WEBSITE_COLUMNS = (
    "organization__link_epoch",
    "domain_verified_at",
    "draft_hash",
    "active_release__version",
    "active_release__published_at",
    "active_release__content_hash",
)


class WebsiteResource(Resource):
    shape = Website
    model = models.Website
    columns = WEBSITE_COLUMNS

    def present(self, row: dict, ctx: PresentContext) -> Website:
        organization = ctx.organization
        version = row["active_release__version"]
        return self.body(
            row,
            ctx,
            domainVerified=bool(row["domain"] and row["domain_verified_at"]),
            url=site_url(row["slug"], served_domain(row)),
            previewUrl=preview_url(row["id"], row["slug"], served_domain(row), row["organization__link_epoch"]),
            published=version is not None,
            activeReleaseVersion=version,
            lastPublishedAt=row["active_release__published_at"],
            hasUnpublishedChanges=version is None or row["draft_hash"] != row["active_release__content_hash"],
            defaultLanguage=organization.default_language,
            languages=organization.languages,
        )


def served_domain(row: dict, prefix: str = "") -> str | None:
    """The custom domain a website (columns `domain`, `domain_verified_at` under `prefix`) is served on."""
    domain = row[f"{prefix}domain"]
    return domain if domain and row[f"{prefix}domain_verified_at"] else None


def _page_url(row: dict, locale=None, default_language=None) -> str:
    base = site_url(row["website__slug"], served_domain(row, "website__"))
    return base + page_path(row["slug"], row["is_homepage"], locale, default_language)


PAGE_SUMMARY_COLUMNS = (
    "sections",
    "website__slug",
    "website__domain",
    "website__domain_verified_at",
)


class WebsitePageSummaryResource(Resource):
    shape = WebsitePageSummary
    model = models.Page
    columns = PAGE_SUMMARY_COLUMNS

    def present(self, row: dict, ctx: PresentContext) -> WebsitePageSummary:
        return self.body(row, ctx, **self.summary_values(row))

    def summary_values(self, row: dict) -> dict:
        sections = row["sections"] or []
        return {"sectionCount": len(sections), "sectionTypes": [s["type"] for s in sections], "url": _page_url(row)}


def not_indexable_reason(*, site_active: bool, published: bool, noindex: bool) -> str | None:
    if not site_active:
        return NotIndexableReason.SITE_INACTIVE
    if not published:
        return NotIndexableReason.SITE_UNPUBLISHED
    if noindex:
        return NotIndexableReason.PAGE_NOINDEX
    return None


def localized_locales(page_translations: dict | None, sections: list[dict]) -> list[str]:
    locales = set(page_translations or {})
    for section in sections:
        locales.update(section.get("translations") or {})
    return sorted(locales)


class WebsitePageResource(WebsitePageSummaryResource):
    shape = WebsitePage
    columns = (
        *PAGE_SUMMARY_COLUMNS,
        "website__name",
        "website__is_active",
        "website__seo_settings",
        "website__active_release_id",
    )

    def present(self, row: dict, ctx: PresentContext) -> WebsitePage:
        seo_settings = seo_settings_of(row["website__seo_settings"], row["website__name"])
        languages = ctx.organization.languages
        locale = ctx.locale if ctx.locale in languages else None
        reason = not_indexable_reason(
            site_active=row["website__is_active"],
            published=row["website__active_release_id"] is not None,
            noindex=row["noindex"],
        )
        sections = row["sections"] or []
        return self.body(
            row,
            ctx,
            **self.summary_values(row),
            sections=sections,
            translations=row["translations"] or None,
            seo={
                "metaTitle": row["meta_title"] or row["title"],
                "metaDescription": row["meta_description"] or seo_settings["siteDescription"],
                "ogImage": row["og_image"] or seo_settings["defaultOgImage"],
                "canonicalUrl": _page_url(row, locale, ctx.organization.default_language),
                "indexable": reason is None,
                "notIndexableReason": reason,
                "localizedLocales": localized_locales(row["translations"], sections),
            },
        )


class ReleaseResource(Resource):
    shape = Release
    model = models.Release
    columns = ("id", "published_by_type", "published_by_name", "website__active_release_id")

    def present(self, row: dict, ctx: PresentContext) -> Release:
        return self.body(
            row,
            ctx,
            publishedBy={"type": row["published_by_type"], "name": row["published_by_name"]},
            isActive=row["id"] == row["website__active_release_id"],
        )


def present_layout(website: models.Website) -> WebsiteLayout:
    layout = website.layout or {}
    return {"header": layout.get("header"), "footer": layout.get("footer")}


def present_styles(website: models.Website) -> WebsiteStyles:
    return styles_of(website.styles)


def present_seo_settings(website: models.Website) -> SeoSettings:
    return seo_settings_of(website.seo_settings, website.name)


WEBSITE = WebsiteResource()
WEBSITE_PAGE_SUMMARY = WebsitePageSummaryResource()
WEBSITE_PAGE = WebsitePageResource()
RELEASE = ReleaseResource()


class DnsRecord(TypedDict):
    type: Annotated[str, Describe("The record type: always `TXT`.")]
    name: Annotated[str, Describe("The record's full name: `_site-verification.<domain>`.")]
    value: Annotated[str, Describe("The exact text to publish: `site-verification=<token>`.")]


class DomainVerification(TypedDict):
    websiteId: int
    domain: Annotated[str, Describe("The custom domain, in its normal form (lower case, IDNA).")]
    verified: Annotated[bool, Describe("Whether the domain is proven and served.")]
    verifiedAt: dt.datetime | None
    result: Annotated[
        DomainCheck,
        Describe(
            "`verified`; `record_not_found` (publish `record` and call again; DNS changes may take a while to "
            "show); `lookup_failed` (the DNS could not be asked: try again later)."
        ),
    ]
    record: Annotated[DnsRecord, Describe("The TXT record that proves control of the domain.")]


def present_domain_verification(website: models.Website, result: str) -> DomainVerification:
    return {
        "websiteId": website.pk,
        "domain": website.domain,
        "verified": website.domain_verified_at is not None,
        "verifiedAt": website.domain_verified_at,
        "result": result,
        "record": challenge_record(website.domain, website.domain_challenge),
    }
