"""Publishing: immutable releases n+1, `hasUnpublishedChanges` exactly when the draft differs from what is served,
rollback serving an older release with the draft untouched, the events, and concurrent publishes."""

from functools import partial

import pytest

from apps.domain_events.models import DomainEvent
from apps.website.models import Release, Website
from tests.concurrency import race

BASE = "/v1/platform/website"
PAGES = f"{BASE}/pages"


def _website(api):
    return api.get(BASE).json()


@pytest.mark.django_db
def test_publish_edit_publish_rollback(api, organization, client_for):
    sections = [{"type": "hero", "config": {"title": "v1"}}]
    home = api.post(PAGES, {"slug": "home", "title": "Home", "sections": sections}, format="json").json()
    writer = client_for("website:read website:write")
    assert writer.post(f"{BASE}/publish", {}, format="json").status_code == 403

    first = api.post(f"{BASE}/publish", {"note": "Launch"}, format="json")
    assert first.status_code == 201, first.content
    assert first["Location"] == "/v1/platform/website/releases/1"
    release = first.json()
    assert (release["version"], release["note"], release["isActive"]) == (1, "Launch", True)
    assert release["publishedBy"] == {"type": "api_key", "name": "test key"}
    website = _website(api)
    assert (website["published"], website["activeReleaseVersion"], website["hasUnpublishedChanges"]) == (
        True,
        1,
        False,
    )
    assert website["lastPublishedAt"] == release["publishedAt"]
    event = DomainEvent.objects.get(type="website.published")
    assert event.data == {"websiteId": website["id"], "version": 1, "publishedAt": release["publishedAt"]}

    # a draft edit stays unpublished; the release keeps the old content
    edited = writer.patch(f"{PAGES}/{home['id']}/sections/hero", {"config": {"title": "v2"}}, format="json")
    assert edited.status_code == 200
    assert _website(api)["hasUnpublishedChanges"] is True
    snapshot = Release.objects.get(version=1).snapshot
    assert snapshot["pages"][0]["sections"][0]["config"] == {"title": "v1"}

    second = api.post(f"{BASE}/publish", {}, format="json").json()
    assert second["version"] == 2 and _website(api)["hasUnpublishedChanges"] is False
    assert Release.objects.get(version=2).snapshot["pages"][0]["sections"][0]["config"] == {"title": "v2"}

    rolled = api.post(f"{BASE}/releases/1/rollback")
    assert rolled.status_code == 200, rolled.content
    assert (rolled.json()["activeReleaseVersion"], rolled.json()["hasUnpublishedChanges"]) == (1, True)
    assert rolled.json()["lastPublishedAt"] == release["publishedAt"]
    assert api.get(f"{PAGES}/{home['id']}").json()["sections"][0]["config"] == {"title": "v2"}  # draft untouched
    rolled_event = DomainEvent.objects.get(type="website.rolled_back")
    assert rolled_event.data["version"] == 1
    history = api.get(f"{BASE}/releases").json()
    assert [(r["version"], r["isActive"]) for r in history["data"]] == [(2, False), (1, True)]
    assert api.get(f"{BASE}/releases/2").json()["isActive"] is False
    assert api.post(f"{BASE}/releases/9/rollback").status_code == 404
    assert api.get(f"{BASE}/releases/99999999999").status_code == 404
    assert writer.post(f"{BASE}/releases/2/rollback").status_code == 403


@pytest.mark.django_db
def test_unpublished_changes_are_exactly_the_difference_from_the_served_release(api):
    page = api.post(PAGES, {"slug": "home", "title": "Home"}, format="json").json()
    api.post(f"{BASE}/publish", {}, format="json")
    assert _website(api)["hasUnpublishedChanges"] is False
    api.patch(f"{PAGES}/{page['id']}", {"title": "Welcome"}, format="json")
    assert _website(api)["hasUnpublishedChanges"] is True
    api.patch(f"{PAGES}/{page['id']}", {"title": "Home"}, format="json")  # back to what is served
    assert _website(api)["hasUnpublishedChanges"] is False
    api.patch(f"{BASE}/styles", {"colors": {"primary": "#000000"}}, format="json")
    assert _website(api)["hasUnpublishedChanges"] is True
    # live fields are not part of the draft
    api.post(f"{BASE}/publish", {}, format="json")
    api.patch(BASE, {"name": "Renamed"}, format="json")
    assert _website(api)["hasUnpublishedChanges"] is False


@pytest.mark.django_db
def test_page_seo_is_indexable_once_published_unless_noindex_or_inactive(api, organization):
    home = api.post(PAGES, {"slug": "home", "title": "Home"}, format="json").json()
    hidden = api.post(PAGES, {"slug": "hidden", "title": "Hidden", "noindex": True}, format="json").json()
    api.post(f"{BASE}/publish", {}, format="json")
    assert api.get(f"{PAGES}/{home['id']}").json()["seo"]["indexable"] is True
    assert api.get(f"{PAGES}/{hidden['id']}").json()["seo"]["notIndexableReason"] == "page_noindex"
    Website.objects.filter(organization=organization).update(is_active=False)
    seo = api.get(f"{PAGES}/{home['id']}").json()["seo"]
    assert (seo["indexable"], seo["notIndexableReason"]) == (False, "site_inactive")


@pytest.mark.django_db(transaction=True)
def test_concurrent_publishes_create_consecutive_versions(organization, client_for):
    clients = [client_for("website:publish") for _ in range(4)]
    responses = race([partial(client.post, f"{BASE}/publish", {}, format="json") for client in clients])
    assert [response.status_code for response in responses] == [201] * 4
    website = Website.objects.get(organization=organization)
    assert sorted(Release.objects.filter(website=website).values_list("version", flat=True)) == [1, 2, 3, 4]
    assert website.active_release.version == 4
