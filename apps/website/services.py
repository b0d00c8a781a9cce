"""Website operations: the default website of every organization, draft edits (pages, sections, layout, styles,
SEO settings), publishing immutable releases and rolling back.

Every draft write locks the website row first, so draft edits, publishes and rollbacks of one website happen one
after the other: two concurrent publishes create two consecutive versions, and a release is one row written in one
transaction (a visitor sees either the old or the new release, never half of one). After each draft write the
draft's hash is refreshed; `hasUnpublishedChanges` compares it with the active release's.
"""

import hashlib

import orjson
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from apps.api.exceptions import ApiError, DuplicateValue, NotFound, ResourceInUse, ValidationFailed
from apps.domain_events.services import emit
from apps.kernel import records, slugs

from . import domains
from .choices import DomainCheck, PublisherType, SectionPlacement
from .models import Page, Release, Website
from .section_types import HTML_ID_MAX, HTML_ID_RE, clean_section
from .theme import merge_styles

SLUG_MAX = 63


# --- the default website ------------------------------------------------------------------------------------------


def ensure_default_website(organization) -> Website:
    """The organization's default website, created (inactive content, no release) when it has none."""
    existing = Website.objects.filter(organization=organization, is_default=True).first()
    if existing is not None:
        return existing
    for _ in range(5):
        try:
            with transaction.atomic():
                website = Website.objects.create(
                    organization=organization,
                    name=organization.name,
                    slug=slugs.free_slug(
                        Website.objects.all(), organization.slug, fallback="site", max_length=SLUG_MAX
                    ),
                    is_default=True,
                )
                _refresh_draft_hash(website)
                return website
        except IntegrityError:  # a concurrent creation took the slug or the default flag
            existing = Website.objects.filter(organization=organization, is_default=True).first()
            if existing is not None:
                return existing
    raise RuntimeError("Could not create the default website.")


# --- the draft snapshot ---------------------------------------------------------------------------------------------


def page_snapshot(page: Page) -> dict:
    return {
        "id": page.pk,
        "slug": page.slug,
        "title": page.title,
        "isHomepage": page.is_homepage,
        "sections": page.sections,
        "metaTitle": page.meta_title,
        "metaDescription": page.meta_description,
        "ogImage": page.og_image,
        "noindex": page.noindex,
        "translations": page.translations or {},
    }


def draft_snapshot(website: Website) -> dict:
    """Everything a release freezes: pages with their sections, layout, styles and SEO settings."""
    pages = [page_snapshot(page) for page in Page.objects.filter(website=website).order_by("id")]
    return {
        "pages": pages,
        "layout": website.layout or {},
        "styles": website.styles or {},
        "seoSettings": website.seo_settings or {},
    }


def content_hash(snapshot: dict) -> str:
    return hashlib.sha256(orjson.dumps(snapshot, option=orjson.OPT_SORT_KEYS)).hexdigest()


def _refresh_draft_hash(website: Website) -> None:
    website.draft_hash = content_hash(draft_snapshot(website))
    website.save(update_fields=["draft_hash", "updated_at"])


def lock_website(website: Website) -> Website:
    return Website.objects.select_for_update().get(pk=website.pk)


# --- live fields ----------------------------------------------------------------------------------------------------


@transaction.atomic
def update_website(website: Website, data: dict) -> Website:
    """`name` and `club` take effect at once (no publish)."""
    website = lock_website(website)
    records.set_fields(website, data)
    website.save()
    return website


# --- sections -------------------------------------------------------------------------------------------------------


def _check_html_id(value, field: str) -> None:
    if not isinstance(value, str) or not HTML_ID_RE.match(value) or len(value) > HTML_ID_MAX:
        raise ValidationFailed({field: [f"Must match ^[a-z][a-z0-9-]*$ and have at most {HTML_ID_MAX} characters."]})


def _check_free_html_id(value, taken, field: str) -> None:
    """400 for a malformed id, 409 DUPLICATE_VALUE for one another section of the page holds."""
    _check_html_id(value, field)
    if value in taken:
        raise DuplicateValue(field)


def _derived_html_id(type_name: str, taken: set[str]) -> str:
    """`hero`, then `hero-2`, `hero-3`, ... whichever is free."""
    if type_name not in taken:
        return type_name
    n = 2
    while f"{type_name}-{n}" in taken:
        n += 1
    return f"{type_name}-{n}"


def clean_sections(raw_sections, placement=SectionPlacement.PAGE, prefix="sections") -> list[dict]:
    """An ordered section list checked and given its html ids: sent ids kept (duplicates 409), missing ones
    derived from the type."""
    if not isinstance(raw_sections, list):
        raise ValidationFailed({prefix: ["Must be a list of sections."]})
    if len(raw_sections) > 100:
        raise ValidationFailed({prefix: ["At most 100 sections."]})
    cleaned = []
    for index, raw in enumerate(raw_sections):
        if not isinstance(raw, dict):
            raise ValidationFailed({f"{prefix}.{index}": ["Must be a section object."]})
        cleaned.append(clean_section(raw, placement, prefix=f"{prefix}.{index}."))
    taken = set()
    for index, section in enumerate(cleaned):
        if section["htmlId"] is not None:
            _check_free_html_id(section["htmlId"], taken, f"{prefix}.{index}.htmlId")
            taken.add(section["htmlId"])
    for section in cleaned:
        if section["htmlId"] is None:
            section["htmlId"] = _derived_html_id(section["type"], taken)
            taken.add(section["htmlId"])
    return cleaned


def _section_index(page: Page, html_id: str) -> int:
    for index, section in enumerate(page.sections):
        if section["htmlId"] == html_id:
            return index
    raise NotFound("No section with that htmlId on this page.")


def _position(value, length: int, field="position") -> int:
    if value is None:
        return length
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValidationFailed({field: ["Must be an integer, 0 or more."]})
    return min(value, length)


def _locked_page(page: Page) -> tuple[Website, Page]:
    website = lock_website(page.website)
    return website, Page.objects.get(pk=page.pk)


def _save_sections(website: Website, page: Page, sections: list[dict]) -> None:
    page.sections = sections
    page.save(update_fields=["sections", "updated_at"])
    _refresh_draft_hash(website)


@transaction.atomic
def add_section(page: Page, data: dict) -> dict:
    website, page = _locked_page(page)
    position = _position(data.get("position"), len(page.sections))
    section = clean_section(data, SectionPlacement.PAGE)
    taken = {existing["htmlId"] for existing in page.sections}
    if section["htmlId"] is not None:
        _check_free_html_id(section["htmlId"], taken, "htmlId")
    else:
        section["htmlId"] = _derived_html_id(section["type"], taken)
    _save_sections(website, page, [*page.sections[:position], section, *page.sections[position:]])
    return section


@transaction.atomic
def update_section(page: Page, html_id: str, data: dict) -> dict:
    """`config`, `translations`, `htmlId`, `position`; the objects are replaced whole."""
    website, page = _locked_page(page)
    index = _section_index(page, html_id)
    current = page.sections[index]
    merged = {
        "type": current["type"],
        "htmlId": current["htmlId"],
        "config": data["config"] if "config" in data else current["config"],
        "translations": data["translations"] if "translations" in data else current["translations"],
    }
    section = clean_section(merged, SectionPlacement.PAGE)
    if "htmlId" in data and data["htmlId"] != current["htmlId"]:
        _check_free_html_id(data["htmlId"], {other["htmlId"] for other in page.sections}, "htmlId")
        section["htmlId"] = data["htmlId"]
    others = [*page.sections[:index], *page.sections[index + 1 :]]
    position = _position(data.get("position"), len(others)) if "position" in data else index
    _save_sections(website, page, [*others[:position], section, *others[position:]])
    return section


@transaction.atomic
def delete_section(page: Page, html_id: str) -> None:
    website, page = _locked_page(page)
    index = _section_index(page, html_id)
    _save_sections(website, page, [*page.sections[:index], *page.sections[index + 1 :]])


# --- pages ----------------------------------------------------------------------------------------------------------

PAGE_FIELDS = ("slug", "title", "meta_title", "meta_description", "og_image", "noindex", "translations")


def _check_slug_free(website: Website, slug: str, exclude_id=None) -> None:
    taken = Page.objects.filter(website=website, slug=slug).exclude(pk=exclude_id).values_list("pk", flat=True)
    existing = taken.first()
    if existing is not None:
        raise DuplicateValue("slug", existing)


def _make_homepage(website: Website, page: Page) -> None:
    Page.objects.filter(website=website, is_homepage=True).exclude(pk=page.pk).update(
        is_homepage=False, updated_at=timezone.now()
    )


@transaction.atomic
def create_page(website: Website, data: dict) -> Page:
    """A draft page; the website's first page becomes its homepage."""
    website = lock_website(website)
    _check_slug_free(website, data["slug"])
    has_homepage = Page.objects.filter(website=website, is_homepage=True).exists()
    page = Page(website=website, **{name: data[name] for name in PAGE_FIELDS if name in data})
    page.sections = clean_sections(data.get("sections", []))
    page.is_homepage = data.get("is_homepage", False) or not has_homepage
    if page.is_homepage:
        _make_homepage(website, page)
    page.save()
    _refresh_draft_hash(website)
    return page


@transaction.atomic
def update_page(page: Page, data: dict) -> Page:
    website, page = _locked_page(page)
    if "slug" in data and data["slug"] != page.slug:
        _check_slug_free(website, data["slug"], exclude_id=page.pk)
    for name in PAGE_FIELDS:
        if name in data:
            setattr(page, name, data[name])
    if "sections" in data:
        page.sections = clean_sections(data["sections"])
    if "is_homepage" in data:
        if data["is_homepage"] and not page.is_homepage:
            _make_homepage(website, page)
            page.is_homepage = True
        elif not data["is_homepage"] and page.is_homepage:
            raise ValidationFailed(
                {"isHomepage": ["A website always has a homepage: set `isHomepage: true` on another page instead."]}
            )
    page.save()
    _refresh_draft_hash(website)
    return page


@transaction.atomic
def delete_page(page: Page) -> None:
    website, page = _locked_page(page)
    if page.is_homepage:
        raise ResourceInUse("The homepage cannot be deleted: make another page the homepage first.")
    page.delete()
    _refresh_draft_hash(website)


# --- layout, styles, SEO settings ----------------------------------------------------------------------------------


@transaction.atomic
def _set_draft(website: Website, field: str, build) -> Website:
    """Set the website's `field` to `build(locked website)` under its row lock; the draft changes."""
    website = lock_website(website)
    setattr(website, field, build(website))
    website.save(update_fields=[field, "updated_at"])
    _refresh_draft_hash(website)
    return website


def update_layout(website: Website, data: dict) -> Website:
    """`header` and/or `footer`: each a section of that placement (or null to remove it), replaced whole."""
    return _set_draft(website, "layout", lambda locked: _layout(locked.layout, data))


def _layout(stored: dict | None, data: dict) -> dict:
    layout = dict(stored or {})
    for placement in (SectionPlacement.HEADER, SectionPlacement.FOOTER):
        if placement.value not in data:
            continue
        raw = data[placement.value]
        if raw is None:
            layout.pop(placement.value, None)
            continue
        if not isinstance(raw, dict):
            raise ValidationFailed({placement.value: ["Must be a section object or null."]})
        section = clean_section(raw, placement, prefix=f"{placement.value}.")
        section["htmlId"] = section["htmlId"] or placement.value
        _check_html_id(section["htmlId"], f"{placement.value}.htmlId")
        layout[placement.value] = section
    return layout


def update_styles(website: Website, changes: dict) -> Website:
    return _set_draft(website, "styles", lambda locked: merge_styles(locked.styles, changes))


def update_seo_settings(website: Website, data: dict) -> Website:
    return _set_draft(website, "seo_settings", lambda locked: {**(locked.seo_settings or {}), **data})


# --- publishing ----------------------------------------------------------------------------------------------------


def publisher_of(credential) -> tuple[str, str]:
    """(type, name) for `publishedBy`: the API key or OAuth grant that published."""
    kind = PublisherType.OAUTH if credential.kind == "oauth" else PublisherType.API_KEY
    return kind, credential.name


def _release_event(release: Release) -> dict:
    return {"websiteId": release.website_id, "version": release.version, "publishedAt": release.published_at}


@transaction.atomic
def publish(website: Website, *, note: str | None, published_by: tuple[str, str]) -> Release:
    """Freeze the draft as release n+1 and serve it. Emits `website.published`."""
    website = lock_website(website)
    snapshot = draft_snapshot(website)
    last = Release.objects.filter(website=website).aggregate(last=Max("version"))["last"] or 0
    release = Release.objects.create(
        website=website,
        version=last + 1,
        note=note,
        snapshot=snapshot,
        content_hash=content_hash(snapshot),
        published_at=timezone.now(),
        published_by_type=published_by[0],
        published_by_name=published_by[1][:200],
    )
    website.active_release = release
    website.draft_hash = release.content_hash
    website.save(update_fields=["active_release", "draft_hash", "updated_at"])
    emit(website.organization_id, "website.published", _release_event(release))
    return release


@transaction.atomic
def rollback(website: Website, version: int) -> Website:
    """Serve release `version` again; the draft is untouched. Emits `website.rolled_back`."""
    website = lock_website(website)
    release = Release.objects.filter(website=website, version=version).first()
    if release is None:
        raise NotFound("No release with that version.")
    website.active_release = release
    website.save(update_fields=["active_release", "updated_at"])
    emit(website.organization_id, "website.rolled_back", _release_event(release))
    return website


# --- custom domains: the DNS TXT challenge (apps/website/domains.py) --------------------------------------------


def verify_domain(website: Website) -> str:
    """Check the custom domain's TXT challenge and mark it verified when the record is published; returns the
    outcome (`verified`, `record_not_found`, `lookup_failed`). 409 `NO_CUSTOM_DOMAIN` without a domain. A domain
    already verified stays so without a lookup; one changed meanwhile (another token) is not marked."""
    if not website.domain:
        raise ApiError(
            "The website has no custom domain; staff set one in the admin first.", code="NO_CUSTOM_DOMAIN", status=409
        )
    if website.domain_verified_at is not None:
        return DomainCheck.VERIFIED
    try:
        published = domains.challenge_published(website.domain, website.domain_challenge)
    except domains.DomainLookupFailed:
        return DomainCheck.LOOKUP_FAILED
    if not published:
        return DomainCheck.RECORD_NOT_FOUND
    now = timezone.now()
    marked = Website.objects.filter(
        pk=website.pk, domain=website.domain, domain_challenge=website.domain_challenge
    ).update(domain_verified_at=now)
    if marked:
        website.domain_verified_at = now
        return DomainCheck.VERIFIED
    return DomainCheck.RECORD_NOT_FOUND
