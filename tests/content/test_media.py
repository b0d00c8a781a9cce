"""The media library through the HTTP API: registering by URL, inferred names and types, the immutable URL,
lookup by name or alt text, deletion needing media:delete, tenancy."""

import pytest

from apps.content.models import MediaItem
from apps.domain_events.models import DomainEvent

URL = "/v1/platform/media"


def _register(api, url="https://cdn.example.com/photos/court.jpg", **body):
    return api.post(URL, {"url": url, **body}, format="json")


def _fields(response):
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "VALIDATION_ERROR"
    return response.json()["details"]["fields"]


def test_register_presents_every_field(api, organization):
    response = _register(api, name="Centre court", altText="Court at night", caption="Opening day")
    assert response.status_code == 201, response.content
    media = MediaItem.objects.get(organization=organization)
    body = response.json()
    assert body == {
        "id": media.id,
        "url": "https://cdn.example.com/photos/court.jpg",
        "name": "Centre court",
        "altText": "Court at night",
        "caption": "Opening day",
        "mediaType": "image",
        "createdAt": body["createdAt"],
        "updatedAt": body["updatedAt"],
    }
    assert response["Location"] == f"{URL}/{media.id}"
    assert api.get(f"{URL}/{media.id}").json() == body
    assert not DomainEvent.objects.exists()  # the webhook catalogue has no media events


@pytest.mark.parametrize(
    ("url", "name", "media_type"),
    [
        ("https://cdn.example.com/a/b/Court%20Photo.JPG", "Court Photo.JPG", "image"),
        ("https://cdn.example.com/clip.mp4?token=abc#t=10", "clip.mp4", "video"),
        ("https://cdn.example.com/x.webp", "x.webp", "image"),
        ("https://cdn.example.com/x.webm", "x.webm", "video"),
        ("https://cdn.example.com/x.MOV", "x.MOV", "video"),
        ("https://cdn.example.com/logo.svg", "logo.svg", "image"),
    ],
)
def test_name_and_media_type_come_from_the_url(api, url, name, media_type):
    body = _register(api, url=url).json()
    assert (body["name"], body["mediaType"], body["url"]) == (name, media_type, url)
    assert body["altText"] is None and body["caption"] is None


def test_media_type_that_cannot_be_inferred_is_400_unless_given(api):
    for url in ("https://cdn.example.com/file", "https://cdn.example.com/doc.pdf", "https://cdn.example.com/"):
        fields = _fields(_register(api, url=url))
        assert list(fields) == ["mediaType"], fields
    assert not MediaItem.objects.exists()
    body = _register(api, url="https://stream.example.com/v/12345", mediaType="video").json()
    assert body["mediaType"] == "video" and body["name"] == "12345"
    assert _register(api, url="https://cdn.example.com/", mediaType="image").json()["name"] == "cdn.example.com"
    # an explicit type wins over the extension
    assert _register(api, url="https://cdn.example.com/poster.jpg", mediaType="video").json()["mediaType"] == "video"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "url"),
        ({"url": None}, "url"),
        ({"url": 5}, "url"),
        ({"url": "http://cdn.example.com/a.jpg"}, "url"),
        ({"url": "ftp://cdn.example.com/a.jpg"}, "url"),
        ({"url": "not a url.jpg"}, "url"),
        ({"url": "https://cdn.example.com/" + "a" * 2030 + ".jpg"}, "url"),
        ({"url": "https://cdn.example.com/a.jpg", "mediaType": "audio"}, "mediaType"),
        ({"url": "https://cdn.example.com/a.jpg", "name": "n" * 256}, "name"),
        ({"url": "https://cdn.example.com/a.jpg", "altText": "a" * 1001}, "altText"),
        ({"url": "https://cdn.example.com/a.jpg", "caption": 3}, "caption"),
    ],
)
def test_register_rejects_bad_values(api, body, field):
    assert list(_fields(api.post(URL, body, format="json"))) == [field]
    assert not MediaItem.objects.exists()


def test_url_of_2048_characters_is_accepted(api):
    url = "https://cdn.example.com/" + "a" * (2048 - len("https://cdn.example.com/") - 4) + ".png"
    assert len(url) == 2048
    response = _register(api, url=url)
    assert response.status_code == 201, response.content
    assert response.json()["url"] == url


def test_url_is_immutable(api):
    media = _register(api).json()
    url = f"{URL}/{media['id']}"
    for value in ("https://cdn.example.com/other.jpg", media["url"], None):
        response = api.patch(url, {"url": value, "name": "Renamed"}, format="json")
        assert response.status_code == 400
        assert response.json()["code"] == "FIELD_NOT_WRITABLE"
        assert response.json()["details"] == {"field": "url"}
    stored = MediaItem.objects.get(pk=media["id"])
    assert stored.url == media["url"] and stored.name == "court.jpg"


def test_patch_edits_name_alt_text_and_caption(api):
    media = _register(api, altText="Alt", caption="Cap").json()
    url = f"{URL}/{media['id']}"
    body = api.patch(url, {"name": "Renamed", "altText": None, "mediaType": "video"}, format="json").json()
    assert body["name"] == "Renamed" and body["altText"] is None and body["caption"] == "Cap"
    assert body["mediaType"] == "image"  # not editable: ignored like any read-only field
    assert api.patch(url, {"caption": ""}, format="json").json()["caption"] is None
    for bad in ({"name": None}, {"name": ""}, {"name": "n" * 256}):
        assert list(_fields(api.patch(url, bad, format="json"))) == ["name"]


def test_delete_needs_media_delete(api, client_for):
    media = _register(api).json()
    url = f"{URL}/{media['id']}"
    response = client_for("media:read media:write").delete(url)
    assert response.status_code == 403
    assert response.json() == {"error": "Insufficient access scope", "requiredScope": "media:delete"}
    assert MediaItem.objects.filter(pk=media["id"]).exists()
    response = client_for("media:delete").delete(url)
    assert response.status_code == 204 and response.content == b""
    assert not MediaItem.objects.filter(pk=media["id"]).exists()
    assert api.get(url).status_code == 404


def test_media_delete_alone_neither_reads_nor_writes(client_for, api):
    media = _register(api).json()
    deleter = client_for("media:delete")
    assert deleter.get(URL).json()["requiredScope"] == "media:read"
    assert deleter.patch(f"{URL}/{media['id']}", {"name": "x"}, format="json").json()["requiredScope"] == "media:write"


def test_another_organizations_media_is_404(api, other_organization):
    theirs = MediaItem.objects.create(
        organization=other_organization, url="https://cdn.example.com/t.jpg", name="Theirs", media_type="image"
    )
    assert api.get(f"{URL}/{theirs.id}").status_code == 404
    assert api.patch(f"{URL}/{theirs.id}", {"name": "Mine"}, format="json").status_code == 404
    assert api.delete(f"{URL}/{theirs.id}").status_code == 404
    assert MediaItem.objects.get(pk=theirs.id).name == "Theirs"
    assert api.get(URL).json()["total"] == 0


def test_name_filter_searches_alt_text_too_and_media_type_filters(api):
    court = _register(api, url="https://cdn.example.com/court.jpg", altText="Padel court").json()
    coach = _register(api, url="https://cdn.example.com/coach.png", name="Coach PADEL portrait").json()
    clip = _register(api, url="https://cdn.example.com/clip.mp4", caption="padel in caption only").json()

    def ids(**params):
        response = api.get(URL, params)
        assert response.status_code == 200, response.content
        return [row["id"] for row in response.json()["data"]]

    assert set(ids(name="padel")) == {court["id"], coach["id"]}  # name or alt text, not the caption
    assert ids(name="court.JPG") == [court["id"]]
    assert set(ids(mediaType="image")) == {court["id"], coach["id"]}
    assert ids(mediaType="video") == [clip["id"]]
    assert ids(ordering="name") == [clip["id"], coach["id"], court["id"]]
    assert ids() == [clip["id"], coach["id"], court["id"]]  # -createdAt
    assert ids(ordering="createdAt") == [court["id"], coach["id"], clip["id"]]
    assert list(_fields(api.get(URL, {"mediaType": "audio"}))) == ["mediaType"]
    assert list(_fields(api.get(URL, {"ordering": "url"}))) == ["ordering"]


def test_list_costs_the_same_queries_for_1_or_200_rows(api, organization, django_assert_max_num_queries):
    _register(api)
    with django_assert_max_num_queries(3) as one:
        assert api.get(URL, {"limit": 200}).json()["total"] == 1
    MediaItem.objects.bulk_create(
        [
            MediaItem(
                organization=organization, url=f"https://cdn.example.com/{i}.png", name=f"{i}", media_type="image"
            )
            for i in range(199)
        ]
    )
    with django_assert_max_num_queries(len(one.captured_queries)):
        assert len(api.get(URL, {"limit": 200}).json()["data"]) == 200
