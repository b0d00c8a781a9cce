"""The website builder over HTTP: the default website, draft pages and sections with every rule, section types,
layout, styles, SEO settings and the page `seo` object."""

import pytest
from django.utils import timezone

from apps.clubs.models import Club
from apps.website.models import Website

BASE = "/v1/platform/website"
PAGES = f"{BASE}/pages"
HERO = {"type": "hero", "config": {"title": "Welcome"}}


def _page(api, slug="about", **extra):
    response = api.post(PAGES, {"slug": slug, "title": slug.title(), **extra}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def _fields(response):
    return response.json()["details"]["fields"]


@pytest.mark.django_db
def test_every_organization_starts_with_one_default_website(api, organization):
    listed = api.get("/v1/platform/websites").json()
    assert listed["total"] == 1
    website = listed["data"][0]
    assert website == api.get(BASE).json()
    assert (website["isDefault"], website["isActive"], website["slug"], website["domain"]) == (
        True,
        True,
        "padel-palace",
        None,
    )
    assert website["url"] == "https://padel-palace.sites.localhost"
    assert website["previewUrl"].startswith("https://padel-palace.sites.localhost/_preview/")
    assert (website["published"], website["activeReleaseVersion"], website["lastPublishedAt"]) == (False, None, None)
    assert website["hasUnpublishedChanges"] is True
    assert (website["defaultLanguage"], website["languages"]) == ("en", ["en", "es"])


@pytest.mark.django_db
def test_the_live_fields_change_at_once_and_nothing_else(api, organization, club, other_organization):
    response = api.patch(BASE, {"name": "Padel Palace Madrid", "clubId": club.id, "slug": "x"}, format="json")
    assert response.status_code == 200, response.content
    assert (response.json()["name"], response.json()["clubId"], response.json()["slug"]) == (
        "Padel Palace Madrid",
        club.id,
        "padel-palace",
    )
    foreign = Club.objects.create(organization=other_organization, name="Rival", slug="rival")
    refused = api.patch(BASE, {"clubId": foreign.id}, format="json")
    assert refused.status_code == 400 and "clubId" in _fields(refused)


@pytest.mark.django_db
def test_website_id_selects_another_website_of_the_organization(api, organization, other_organization):
    second = Website.objects.create(organization=organization, name="Kids", slug="padel-kids", domain="kids.example")
    assert api.get(BASE, {"websiteId": second.id}).json()["url"] == "https://padel-kids.sites.localhost"  # unproven
    Website.objects.filter(pk=second.pk).update(domain_verified_at=timezone.now())
    assert api.get(BASE, {"websiteId": second.id}).json()["url"] == "https://kids.example"
    created = api.post(f"{PAGES}?websiteId={second.id}", {"slug": "camp", "title": "Camp"}, format="json")
    assert created.status_code == 201
    assert api.get(PAGES).json()["total"] == 0  # the default website has no pages
    assert api.get(PAGES, {"websiteId": second.id}).json()["total"] == 1
    foreign = Website.objects.get(organization=other_organization)
    assert api.get(BASE, {"websiteId": foreign.id}).status_code == 404
    assert api.get(PAGES, {"websiteId": foreign.id}).status_code == 404
    assert api.get(BASE, {"websiteId": "abc"}).status_code == 400


@pytest.mark.django_db
def test_page_slugs_follow_the_pattern_and_are_unique(api):
    home = _page(api, "home")
    assert home["isHomepage"] is True  # the first page is the homepage
    assert home["url"] == "https://padel-palace.sites.localhost/"
    bad = api.post(PAGES, {"slug": "About Us", "title": "About"}, format="json")
    assert bad.status_code == 400 and "slug" in _fields(bad)
    taken = api.post(PAGES, {"slug": "home", "title": "Again"}, format="json")
    assert taken.status_code == 409
    assert taken.json()["code"] == "DUPLICATE_VALUE" and taken.json()["details"]["field"] == "slug"
    about = _page(api, "about")
    assert (about["isHomepage"], about["url"]) == (False, "https://padel-palace.sites.localhost/about")
    renamed = api.patch(f"{PAGES}/{about['id']}", {"slug": "home"}, format="json")
    assert renamed.status_code == 409


@pytest.mark.django_db
def test_the_homepage_flag_moves_and_the_homepage_cannot_be_deleted(api):
    home, about = _page(api, "home"), _page(api, "about")
    refused = api.delete(f"{PAGES}/{home['id']}")
    assert refused.status_code == 409 and refused.json()["code"] == "RESOURCE_IN_USE"
    moved = api.patch(f"{PAGES}/{about['id']}", {"isHomepage": True}, format="json")
    assert moved.status_code == 200 and moved.json()["isHomepage"] is True
    assert moved.json()["url"] == "https://padel-palace.sites.localhost/"
    assert api.get(f"{PAGES}/{home['id']}").json()["isHomepage"] is False
    unset = api.patch(f"{PAGES}/{about['id']}", {"isHomepage": False}, format="json")
    assert unset.status_code == 400 and "isHomepage" in _fields(unset)
    assert api.delete(f"{PAGES}/{home['id']}").status_code == 204
    assert api.get(PAGES).json()["total"] == 1


@pytest.mark.django_db
def test_lists_carry_counts_and_types_a_single_fetch_the_sections(api):
    sections = [HERO, {"type": "text", "config": {"body": "<p>Hi</p>"}}, HERO]
    page = _page(api, "home", sections=sections, translations={"es": {"metaTitle": "Inicio"}})
    item = api.get(PAGES).json()["data"][0]
    assert (item["sectionCount"], item["sectionTypes"]) == (3, ["hero", "text", "hero"])
    assert not {"sections", "translations", "seo"} & set(item)
    single = api.get(f"{PAGES}/{page['id']}").json()
    assert [s["htmlId"] for s in single["sections"]] == ["hero", "text", "hero-2"]
    assert single["translations"] == {"es": {"metaTitle": "Inicio"}}
    assert single["seo"]["localizedLocales"] == ["es"]


@pytest.mark.django_db
def test_html_ids_are_derived_kept_when_sent_back_and_unique(api):
    page = _page(api, "home", sections=[HERO, HERO])
    read = api.get(f"{PAGES}/{page['id']}").json()["sections"]
    assert [s["htmlId"] for s in read] == ["hero", "hero-2"]
    # send the read list back reordered, plus a new hero: the read ids stay, the new one takes a free id
    body = {"sections": [read[1], read[0], HERO]}
    replaced = api.patch(f"{PAGES}/{page['id']}", body, format="json").json()["sections"]
    assert [s["htmlId"] for s in replaced] == ["hero-2", "hero", "hero-3"]
    twice = api.patch(f"{PAGES}/{page['id']}", {"sections": [read[0], read[0]]}, format="json")
    assert twice.status_code == 409 and twice.json()["details"]["field"] == "sections.1.htmlId"
    bad = api.patch(f"{PAGES}/{page['id']}", {"sections": [{**HERO, "htmlId": "9lives"}]}, format="json")
    assert bad.status_code == 400 and "sections.0.htmlId" in _fields(bad)


@pytest.mark.django_db
def test_section_config_is_checked_against_its_type(api):
    page = _page(api, "home")
    url = f"{PAGES}/{page['id']}/sections"
    missing = api.post(url, {"type": "hero", "config": {"subtitle": "x"}}, format="json")
    assert missing.status_code == 400 and "config.title" in _fields(missing)
    wrong = api.post(url, {"type": "hero", "config": {"title": 5, "extra": 1}}, format="json")
    assert {"config.title", "config.extra"} <= set(_fields(wrong))
    unknown = api.post(url, {"type": "carousel"}, format="json")
    assert unknown.status_code == 400 and "type" in _fields(unknown)
    header = api.post(url, {"type": "header", "config": {}}, format="json")
    assert header.status_code == 400 and "allowed in" in _fields(header)["type"][0]
    link = api.post(url, {"type": "hero", "config": {"title": "x", "ctaUrl": "javascript:alert(1)"}}, format="json")
    assert link.status_code == 400 and "config.ctaUrl" in _fields(link)
    text = api.post(url, {"type": "text", "config": {"body": "<p>Hi</p><script>alert(1)</script>"}}, format="json")
    assert text.status_code == 201 and text.json()["config"]["body"] == "<p>Hi</p>"


@pytest.mark.django_db
def test_sections_are_added_moved_replaced_and_deleted_by_html_id(api):
    page = _page(api, "home", sections=[HERO])
    url = f"{PAGES}/{page['id']}/sections"
    faq = api.post(url, {"type": "faq", "config": {"heading": "FAQ"}, "position": 0}, format="json")
    assert faq.status_code == 201 and faq["Location"].endswith("/sections/faq")
    assert [s["htmlId"] for s in api.get(url).json()["data"]] == ["faq", "hero"]
    taken = api.post(url, {**HERO, "htmlId": "faq"}, format="json")
    assert taken.status_code == 409 and taken.json()["code"] == "DUPLICATE_VALUE"
    patched = api.patch(f"{url}/hero", {"config": {"title": "Hola"}, "position": 0, "htmlId": "top"}, format="json")
    assert patched.status_code == 200, patched.content
    assert patched.json() == {"type": "hero", "htmlId": "top", "config": {"title": "Hola"}, "translations": {}}
    assert [s["htmlId"] for s in api.get(url).json()["data"]] == ["top", "faq"]
    assert api.patch(f"{url}/top", {"htmlId": "faq"}, format="json").status_code == 409
    assert api.patch(f"{url}/missing", {}, format="json").status_code == 404
    assert api.delete(f"{url}/faq").status_code == 204
    assert api.get(url).json()["total"] == 1


@pytest.mark.django_db
def test_section_translations_override_only_translatable_strings(api):
    page = _page(api, "home")
    url = f"{PAGES}/{page['id']}/sections"
    ok = api.post(url, {**HERO, "translations": {"es": {"title": "Bienvenido"}}}, format="json")
    assert ok.status_code == 201 and ok.json()["translations"] == {"es": {"title": "Bienvenido"}}
    body = {"type": "hero", "config": {"title": "x"}, "translations": {"es": {"imageUrl": "/a"}}}
    refused = api.post(url, body, format="json")
    assert refused.status_code == 400 and "translations.es.imageUrl" in _fields(refused)


@pytest.mark.django_db
def test_section_types_define_their_config_schema_and_placement(api):
    types = {t["type"]: t for t in api.get(f"{BASE}/section-types").json()["data"]}
    assert {"hero", "text", "plans", "class-schedule", "faq", "gallery", "contact", "header", "footer"} <= set(types)
    assert types["hero"]["configSchema"]["required"] == ["title"]
    assert types["hero"]["translatableFields"] == ["title", "subtitle", "ctaLabel"]
    assert (types["header"]["allowedIn"], types["footer"]["allowedIn"], types["faq"]["allowedIn"]) == (
        ["header"],
        ["footer"],
        ["page"],
    )


@pytest.mark.django_db
def test_layout_holds_a_header_and_a_footer_section(api):
    assert api.get(f"{BASE}/layout").json() == {"header": None, "footer": None}
    header = {"type": "header", "config": {"links": [{"label": "Classes", "url": "/classes"}]}}
    response = api.patch(f"{BASE}/layout", {"header": header}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["header"]["htmlId"] == "header" and response.json()["footer"] is None
    wrong = api.patch(f"{BASE}/layout", {"footer": header}, format="json")
    assert wrong.status_code == 400 and "footer.type" in _fields(wrong)
    assert api.patch(f"{BASE}/layout", {"header": None}, format="json").json()["header"] is None


@pytest.mark.django_db
def test_styles_merge_known_tokens_ignore_unknown_and_refuse_malformed(api):
    defaults = api.get(f"{BASE}/styles").json()
    assert defaults["buttonStyle"] == "rounded" and defaults["colors"]["primary"].startswith("#")
    body = {"colors": {"primary": "#ff0066", "glow": "#fff"}, "shadow": "big", "radius": "12px"}
    merged = api.patch(f"{BASE}/styles", body, format="json")
    assert merged.status_code == 200
    assert (merged.json()["colors"]["primary"], merged.json()["radius"]) == ("#ff0066", "12px")
    assert merged.json()["colors"]["text"] == defaults["colors"]["text"] and "glow" not in merged.json()["colors"]
    body = {"colors": {"primary": "red;}"}, "typography": {"baseSize": "huge"}}
    bad = api.patch(f"{BASE}/styles", body, format="json")
    assert bad.status_code == 400 and {"colors.primary", "typography.baseSize"} <= set(_fields(bad))
    assert api.get(f"{BASE}/styles").json()["colors"]["primary"] == "#ff0066"  # nothing half-written


@pytest.mark.django_db
def test_page_seo_falls_back_to_the_site_settings(api):
    settings = {"siteDescription": "Padel in Madrid", "defaultOgImage": "https://cdn.example/og.png"}
    assert api.patch(f"{BASE}/seo-settings", settings, format="json").status_code == 200
    assert api.get(f"{BASE}/seo-settings").json() == {
        "siteTitle": "Padel Palace",
        "siteDescription": "Padel in Madrid",
        "defaultOgImage": "https://cdn.example/og.png",
        "titleTemplate": "%s",
        "favicon": None,
    }
    bad = api.patch(f"{BASE}/seo-settings", {"titleTemplate": "no placeholder"}, format="json")
    assert bad.status_code == 400 and "titleTemplate" in _fields(bad)
    _page(api, "home")
    about = _page(api, "about", metaDescription="About us")
    seo = api.get(f"{PAGES}/{about['id']}").json()["seo"]
    assert seo == {
        "metaTitle": "About",
        "metaDescription": "About us",
        "ogImage": "https://cdn.example/og.png",
        "canonicalUrl": "https://padel-palace.sites.localhost/about",
        "indexable": False,
        "notIndexableReason": "site_unpublished",
        "localizedLocales": [],
    }
    spanish = api.get(f"{PAGES}/{about['id']}", {"locale": "es"}).json()["seo"]
    assert spanish["canonicalUrl"] == "https://padel-palace.sites.localhost/es/about"


@pytest.mark.django_db
def test_page_translations_hold_only_the_meta_fields(api):
    bad = api.post(PAGES, {"slug": "home", "title": "Home", "translations": {"es": {"title": "Inicio"}}}, format="json")
    assert bad.status_code == 400 and "translations.es.title" in _fields(bad)
    long = {"es": {"metaTitle": "x" * 201}}
    assert api.post(PAGES, {"slug": "home", "title": "Home", "translations": long}, format="json").status_code == 400


def _website_operations(document):
    """Every operation of the document under /v1/platform/website (the builder), with its method."""
    for path, item in document["paths"].items():
        if path == BASE or path.startswith(f"{BASE}/"):
            for method, operation in item.items():
                if method in ("get", "post", "patch", "delete"):
                    yield path, method, operation


@pytest.mark.django_db
def test_an_unknown_website_id_is_404_on_every_website_operation_and_documented(api, organization, other_organization):
    document = api.get("/v1/openapi.json").json()
    operations = list(_website_operations(document))
    assert len(operations) >= 22
    for path, method, operation in operations:
        names = [p["name"] for p in operation.get("parameters", []) if p["in"] == "query"]
        assert "websiteId" in names, (path, method)
        assert "404" in operation["responses"], (path, method)
        assert "websiteId" in operation["responses"]["404"]["description"], (path, method)

    page = _page(api, "home", sections=[{**HERO, "htmlId": "hero"}])
    release = api.post(f"{BASE}/publish", {}, format="json").json()
    values = {"pageId": page["id"], "htmlId": "hero", "version": release["version"]}
    foreign = Website.objects.get(organization=other_organization)
    for website_id in (foreign.id, 2**31 - 1, 2**40):
        for path, method, _ in operations:
            url = path.format(**values)
            # A body that would be refused (400/415) if it were read: the unknown website wins.
            response = api.generic(method.upper(), f"{url}?websiteId={website_id}", "not json", "text/plain")
            assert response.status_code == 404, (method, url, website_id, response.content)
            assert response.json()["code"] == "NOT_FOUND"
    assert api.get(BASE).json()["id"] != foreign.id
    assert api.get(PAGES).json()["total"] == 1  # nothing was written
    assert api.get(f"{BASE}/releases").json()["total"] == 1
