"""Content on the published website: FAQ sections from published FAQ items, galleries from the media library, and
the blog (`/blog`, `/blog/<slug>`, with locale prefixes) from published, public posts and how-to guides."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.events.factories import make_event

BASE = "/v1/platform/website"
PAGES = f"{BASE}/pages"
HOST = "padel-palace.sites.localhost"
CONTENT = "/v1/platform/content-items"


def visit(path="/"):
    return Client().get(path, HTTP_HOST=HOST)


def item(api, **body):
    response = api.post(CONTENT, {"status": "published", **body}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def publish_site(api, sections):
    assert api.post(PAGES, {"slug": "home", "title": "Home", "sections": sections}, format="json").status_code == 201
    assert api.post(f"{BASE}/publish", {}, format="json").status_code == 201


@pytest.mark.django_db
def test_the_faq_section_shows_published_faqs_of_the_page_language(api):
    item(api, type="faq", title="Can I rent a racket?", content={"html": "<p>Yes, at the desk.</p>"})
    item(api, type="faq", title="¿Hay duchas?", language="es", content={"html": "<p>Sí.</p>"})
    item(api, type="faq", title="Secret draft question", status="draft")
    item(api, type="faq", title="Members only question", visibility="Private")
    publish_site(api, [{"type": "faq", "config": {"heading": "Questions"}}])
    english = visit().content.decode()
    assert "Can I rent a racket?" in english and "Yes, at the desk." in english
    assert "¿Hay duchas?" not in english and "Secret draft" not in english and "Members only" not in english
    spanish = visit("/es/").content.decode()
    assert "¿Hay duchas?" in spanish and "Can I rent a racket?" in spanish  # no language: every locale


@pytest.mark.django_db
def test_the_faq_section_can_pick_and_order_items(api):
    first = item(api, type="faq", title="First question")
    second = item(api, type="faq", title="Second question")
    item(api, type="faq", title="Left out")
    publish_site(api, [{"type": "faq", "config": {"contentItemIds": [second["id"], first["id"]]}}])
    body = visit().content.decode()
    assert body.index("Second question") < body.index("First question") and "Left out" not in body


@pytest.mark.django_db
def test_the_gallery_shows_media_in_order_with_alt_text(api, other_organization):
    one = api.post(
        "/v1/platform/media", {"url": "https://cdn.example/a.jpg", "altText": "Court at night"}, format="json"
    )
    two = api.post("/v1/platform/media", {"url": "https://cdn.example/b.png", "caption": "Finals"}, format="json")
    ids = [two.json()["id"], one.json()["id"]]
    publish_site(api, [{"type": "gallery", "config": {"heading": "Photos", "mediaIds": [*ids, 999999]}}])
    body = visit().content.decode()
    assert body.index("https://cdn.example/b.png") < body.index("https://cdn.example/a.jpg")
    assert 'alt="Court at night"' in body and "<figcaption>Finals</figcaption>" in body


@pytest.mark.django_db
def test_posts_and_guides_are_readable_on_the_blog(api):
    post = item(
        api,
        type="post",
        title="New courts open",
        excerpt="Two more padel courts.",
        content={"html": "<p>Opening on Monday.</p><script>alert(1)</script>"},
    )
    item(api, type="how-to-guide", title="How to book", slug="how-to-book")
    item(api, type="post", title="Draft news", status="draft", slug="draft-news")
    item(api, type="post", title="Members news", visibility="Private", slug="members-news")
    publish_site(api, [{"type": "hero", "config": {"title": "Welcome"}}])
    page = visit(f"/blog/{post['slug']}")
    assert page.status_code == 200
    body = page.content.decode()
    assert "<h1>New courts open</h1>" in body and "Opening on Monday." in body and "<script>alert" not in body
    assert f'<link rel="canonical" href="https://padel-palace.sites.localhost/blog/{post["slug"]}">' in body
    assert visit("/blog/how-to-book").status_code == 200
    assert visit(f"/es/blog/{post['slug']}").status_code == 200
    assert '<html lang="es">' in visit(f"/es/blog/{post['slug']}").content.decode()
    assert visit("/blog/draft-news").status_code == 404
    assert visit("/blog/members-news").status_code == 404
    index = visit("/blog").content.decode()
    assert "New courts open" in index and "How to book" in index and "Draft news" not in index


@pytest.mark.django_db
def test_content_sections_cost_one_query_each_whatever_their_number(api, settings):
    settings.WEBSITE_PAGE_CACHE_SECONDS = 0  # measure the rendering, not the page cache
    item(api, type="faq", title="Q")
    publish_site(api, [{"type": "faq", "config": {}}])
    visit()
    with CaptureQueriesContext(connection) as one:
        assert visit().status_code == 200
    assert (
        api.patch(
            f"{PAGES}/{api.get(PAGES).json()['data'][0]['id']}",
            {
                "sections": [{"type": "faq", "config": {}}] * 6
                + [{"type": "gallery", "config": {"mediaIds": [1, 2]}}] * 6
            },
            format="json",
        ).status_code
        == 200
    )
    api.post(f"{BASE}/publish", {}, format="json")
    with CaptureQueriesContext(connection) as many:
        assert visit().status_code == 200
    assert len(many) <= len(one) + 1  # the media, once


@pytest.mark.django_db
def test_the_events_section_shows_published_public_upcoming_events(api, organization, club):
    make_event(organization, club, name="Summer Cup")
    make_event(organization, club, name="Draft Cup", status="draft", slug="draft-cup")
    make_event(organization, club, name="Private Cup", slug="private-cup").__class__.objects.filter(
        slug="private-cup"
    ).update(visibility="Private")
    publish_site(api, [{"type": "events", "config": {"heading": "What's on"}}])
    body = visit().content.decode()
    assert "What&#x27;s on" in body and "Summer Cup" in body
    assert "Draft Cup" not in body and "Private Cup" not in body
