import itertools

from django.utils import timezone

from apps.content.models import ContentItem, MediaItem
from apps.organizations.models import ApiKey
from tests.harness import EndpointCase

_seq = itertools.count()


def _settle_key_usage(organization):
    """The first request of a fresh API key also writes `last_used_at`; mark the keys used so the contract's
    one-row vs many-rows query comparison counts only the list's own queries."""
    ApiKey.objects.filter(organization=organization).update(last_used_at=timezone.now())


def item_ids(organization):
    item = ContentItem.objects.create(
        organization=organization, type="post", title="Hello", slug=f"hello-{next(_seq)}", status="published"
    )
    return {"id": item.id}


def item_rows(organization, n):
    _settle_key_usage(organization)
    ContentItem.objects.bulk_create(
        [
            ContentItem(
                organization=organization,
                type="faq" if i % 2 else "post",
                title=f"Item {i}",
                slug=f"item-{next(_seq)}",
                status="published",
                html="<p>x</p>",
                blocks={"blocks": [{"type": "paragraph", "data": {"text": "x"}}]},
                tags=["news"],
                keywords=["padel"],
                published_at=timezone.now(),
            )
            for i in range(n)
        ]
    )


def media_ids(organization):
    media = MediaItem.objects.create(
        organization=organization, url="https://cdn.example.com/a.jpg", name="a.jpg", media_type="image"
    )
    return {"id": media.id}


def media_rows(organization, n):
    _settle_key_usage(organization)
    MediaItem.objects.bulk_create(
        [
            MediaItem(
                organization=organization, url=f"https://cdn.example.com/{i}.mp4", name=f"{i}", media_type="video"
            )
            for i in range(n)
        ]
    )


CASES = [
    EndpointCase("GET", "/v1/platform/content-items", "content:read", list_rows=item_rows),
    EndpointCase("GET", "/v1/platform/content-items/{id}", "content:read", setup=item_ids),
    EndpointCase("POST", "/v1/platform/content-items", "content:write", body={"title": "Hi", "type": "post"}),
    EndpointCase("PATCH", "/v1/platform/content-items/{id}", "content:write", setup=item_ids, body={}),
    EndpointCase("DELETE", "/v1/platform/content-items/{id}", "content:write", setup=item_ids),
    EndpointCase("GET", "/v1/platform/media", "media:read", list_rows=media_rows),
    EndpointCase("GET", "/v1/platform/media/{id}", "media:read", setup=media_ids),
    EndpointCase("POST", "/v1/platform/media", "media:write", body={"url": "https://cdn.example.com/b.png"}),
    EndpointCase("PATCH", "/v1/platform/media/{id}", "media:write", setup=media_ids, body={}),
    EndpointCase("DELETE", "/v1/platform/media/{id}", "media:delete", setup=media_ids),
]
