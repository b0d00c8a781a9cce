"""Demo content (idempotent, readable through the API) and the content admin (tenancy, saves through the services)."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client

from apps.content import demo
from apps.content.models import ContentItem, MediaItem
from apps.domain_events.models import DomainEvent
from apps.organizations.models import StaffMembership


def test_seed_is_idempotent_and_readable(organization, api, client_for):
    demo.seed(organization, {})
    ctx = {}
    demo.seed(organization, ctx)
    assert ContentItem.objects.filter(organization=organization).count() == len(demo.ITEMS)
    assert MediaItem.objects.filter(organization=organization).count() == len(demo.MEDIA)
    assert set(ctx["content_items"]) == {slug for _, slug, *_ in demo.ITEMS}

    reader = client_for("content:read")
    faqs = reader.get("/v1/platform/content-items", {"type": "faq", "ordering": "title"}).json()
    assert faqs["total"] == 3 and all(row["status"] == "published" for row in faqs["data"])
    posts = api.get("/v1/platform/content-items", {"type": "post"}).json()
    assert {row["status"] for row in posts["data"]} == {"published", "draft"}
    assert reader.get("/v1/platform/content-items", {"type": "post"}).json()["total"] == 2
    assert api.get("/v1/platform/content-items", {"type": "document"}).json()["total"] == 1
    assert api.get("/v1/platform/media", {"mediaType": "video"}).json()["total"] == 1


@pytest.fixture
def staff(organization):
    user = get_user_model().objects.create_user("desk@example.com", "desk@example.com", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(content_type__app_label="content"))
    StaffMembership.objects.create(user=user, organization=organization, role="staff")
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("model", ["contentitem", "mediaitem"])
def test_staff_see_only_their_rows(staff, organization, other_organization, model):
    def rows(org, tag):
        item = ContentItem.objects.create(organization=org, type="post", title=f"{tag} post", slug=tag.lower())
        media = MediaItem.objects.create(
            organization=org, url=f"https://cdn.example.com/{tag}.jpg", name=f"{tag} photo", media_type="image"
        )
        return {"contentitem": item, "mediaitem": media}

    ours, theirs = rows(organization, "Alpha"), rows(other_organization, "Bravo")
    response = staff.get(f"/admin/content/{model}/")
    assert response.status_code == 200
    assert [row.pk for row in response.context["cl"].result_list] == [ours[model].pk]
    assert "Bravo" not in response.content.decode()
    assert staff.get(f"/admin/content/{model}/{theirs[model].pk}/change/").status_code == 302
    assert staff.get(f"/admin/content/{model}/{ours[model].pk}/change/").status_code == 200


@pytest.mark.django_db
def test_admin_saves_through_the_services(staff, organization):
    form = {
        "organization": organization.pk,
        "type": "post",
        "title": "Über uns",
        "slug": "",
        "status": "published",
        "visibility": "Public",
        "keywords": "[]",
        "tags": "[]",
        "images": "[]",
        "featured": "unknown",
    }
    response = staff.post("/admin/content/contentitem/add/", form)
    assert response.status_code == 302, response.context["adminform"].form.errors
    item = ContentItem.objects.get(organization=organization)
    assert item.slug == "uber-uns" and item.published_at is not None
    assert DomainEvent.objects.filter(type="content_item.created", data__id=item.pk).exists()
    response = staff.post(
        f"/admin/content/contentitem/{item.pk}/change/", {**form, "slug": "uber-uns", "title": "About"}
    )
    assert response.status_code == 302
    event = DomainEvent.objects.get(type="content_item.updated")
    assert event.changed_fields == ["title"]
