"""Content items through the HTTP API: every field, slugs, publishing, sanitizing, the published-only rule for
content:read, filters and ordering, authors, events, tenancy."""

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from apps.content.models import ContentItem
from apps.domain_events.models import DomainEvent
from apps.organizations.models import StaffMembership

URL = "/v1/platform/content-items"


def _create(api, **body):
    return api.post(URL, {"title": "Hello world", "type": "post", **body}, format="json")


def _fields(response):
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "VALIDATION_ERROR"
    return response.json()["details"]["fields"]


def _staff(organization, username="editor", **names):
    user = get_user_model().objects.create_user(username=username, email=f"{username}@example.com", **names)
    StaffMembership.objects.create(user=user, organization=organization)
    return user


@pytest.fixture
def editor(organization):
    return _staff(organization, first_name="Eva", last_name="Editor")


@pytest.fixture
def reader(client_for):
    return client_for("content:read")


def _item(organization, **fields):
    defaults = {"type": "post", "title": "T", "slug": f"t-{ContentItem.objects.count()}", "status": "published"}
    return ContentItem.objects.create(organization=organization, **{**defaults, **fields})


# --- create and present ---------------------------------------------------------------------------------------------


def test_create_presents_every_field_and_records_the_event(api, organization, editor):
    blocks = {
        "time": 1,
        "version": "2.30",
        "blocks": [{"id": "a1", "type": "header", "data": {"text": "Hi", "level": 2}}],
    }
    response = _create(
        api,
        slug="hello",
        status="published",
        visibility="Member_only",
        content={"html": "<p>Body</p>", "blocks": blocks, "summary": "Short", "keywords": ["padel", "news"]},
        excerpt="An excerpt",
        metaTitle="Meta title",
        metaDescription="Meta description",
        metaKeywords="padel, club",
        canonicalUrl="https://example.com/hello",
        template="article",
        layout="wide",
        customFields={"readingMinutes": 3},
        tags=["news", "courts"],
        images=["https://cdn.example.com/a.jpg"],
        featured=True,
        authorId=editor.id,
        language="en",
    )
    assert response.status_code == 201, response.content
    item = ContentItem.objects.get(organization=organization)
    body = response.json()
    assert body == {
        "id": item.id,
        "organizationId": organization.id,
        "title": "Hello world",
        "slug": "hello",
        "type": "post",
        "status": "published",
        "visibility": "Member_only",
        "content": {"html": "<p>Body</p>", "blocks": blocks, "summary": "Short", "keywords": ["padel", "news"]},
        "excerpt": "An excerpt",
        "metaTitle": "Meta title",
        "metaDescription": "Meta description",
        "metaKeywords": "padel, club",
        "canonicalUrl": "https://example.com/hello",
        "template": "article",
        "layout": "wide",
        "customFields": {"readingMinutes": 3},
        "tags": ["news", "courts"],
        "summary": "Short",
        "keywords": ["padel", "news"],
        "images": ["https://cdn.example.com/a.jpg"],
        "featured": True,
        "authorId": editor.id,
        "author": {"id": editor.id, "name": "Eva Editor", "email": "editor@example.com", "profileImage": None},
        "publishedAt": body["publishedAt"],
        "language": "en",
        "createdAt": body["createdAt"],
        "updatedAt": body["updatedAt"],
    }
    assert body["publishedAt"] is not None
    assert response["Location"] == f"{URL}/{item.id}"
    assert api.get(f"{URL}/{item.id}").json() == body
    event = DomainEvent.objects.get(type="content_item.created")
    assert event.organization_id == organization.id and event.data == body and event.changed_fields is None


def test_defaults(api):
    body = _create(api).json()
    assert body["status"] == "draft" and body["publishedAt"] is None and body["visibility"] == "Public"
    assert body["content"] == {"html": None, "blocks": None, "summary": None, "keywords": []}
    assert body["tags"] == [] and body["images"] == [] and body["keywords"] == [] and body["summary"] is None
    assert body["featured"] is None and body["customFields"] is None and body["language"] is None
    assert body["author"] is None and body["authorId"] is None  # the test key has no creator


def test_author_defaults_to_the_staff_member_who_created_the_key(organization, make_token, editor, other_organization):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {make_token('*', created_by=editor)}")
    assert _create(client).json()["authorId"] == editor.id
    outsider = get_user_model().objects.create_user(username="gone")
    StaffMembership.objects.create(user=outsider, organization=other_organization)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {make_token('*', created_by=outsider)}")
    body = _create(client, title="Second").json()
    assert body["authorId"] is None and body["author"] is None


def test_author_must_be_staff_of_the_organization(api, organization, other_organization, editor):
    stranger = get_user_model().objects.create_user(username="stranger")
    theirs = _staff(other_organization, username="theirs")
    for author_id in (stranger.id, theirs.id, 0, "1"):
        assert "authorId" in _fields(_create(api, authorId=author_id))
    assert not ContentItem.objects.exists()
    item = _create(api, authorId=editor.id).json()
    cleared = api.patch(f"{URL}/{item['id']}", {"authorId": None}, format="json").json()
    assert cleared["authorId"] is None and cleared["author"] is None
    editor.first_name = editor.last_name = ""
    editor.save()
    named = api.patch(f"{URL}/{item['id']}", {"authorId": editor.id}, format="json").json()
    assert named["author"]["name"] == "editor"  # no full name: the username


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"type": "post"}, "title"),
        ({"title": "T"}, "type"),
        ({"title": "", "type": "post"}, "title"),
        ({"title": "x" * 201, "type": "post"}, "title"),
        ({"title": "T", "type": "news"}, "type"),
        ({"title": "T", "type": "post", "status": "live"}, "status"),
        ({"title": "T", "type": "post", "visibility": "public"}, "visibility"),
        ({"title": "T", "type": "post", "slug": "Not A Slug"}, "slug"),
        ({"title": "T", "type": "post", "slug": "trailing-"}, "slug"),
        ({"title": "T", "type": "post", "slug": "x" * 201}, "slug"),
        ({"title": "T", "type": "post", "slug": None}, "slug"),
        ({"title": "T", "type": "post", "content": "text"}, "content"),
        ({"title": "T", "type": "post", "content": None}, "content"),
        ({"title": "T", "type": "post", "content": {"html": 5}}, "content.html"),
        ({"title": "T", "type": "post", "content": {"keywords": "a"}}, "content.keywords"),
        ({"title": "T", "type": "post", "canonicalUrl": "not a url"}, "canonicalUrl"),
        ({"title": "T", "type": "post", "tags": "news"}, "tags"),
        ({"title": "T", "type": "post", "tags": ["x" * 51]}, "tags"),
        ({"title": "T", "type": "post", "tags": ["t"] * 51}, "tags"),
        ({"title": "T", "type": "post", "images": ["nope"]}, "images"),
        ({"title": "T", "type": "post", "featured": "yes"}, "featured"),
        ({"title": "T", "type": "post", "language": "english!"}, "language"),
        ({"title": "T", "type": "post", "customFields": [1]}, "customFields"),
        ({"title": "T", "type": "post", "customFields": {"a": "x" * 17000}}, "customFields"),
        ({"title": "T", "type": "post", "excerpt": "x" * 2001}, "excerpt"),
    ],
)
def test_create_rejects_bad_values(api, body, field):
    fields = _fields(api.post(URL, body, format="json"))
    assert any(name == field or name.startswith(f"{field}.") for name in fields), fields
    assert not ContentItem.objects.exists()


def test_bounds_accept_their_edges(api):
    response = _create(api, title="x" * 200, slug="s" * 200, excerpt="e" * 2000, tags=[f"t{i}" for i in range(50)])
    assert response.status_code == 201, response.content


# --- slugs ------------------------------------------------------------------------------------------------------------


def test_slug_is_derived_from_the_title_transliterated(api):
    assert _create(api, title="Qué tal, Zürich!").json()["slug"] == "que-tal-zurich"
    assert _create(api, title="Привет мир").json()["slug"] == "privet-mir"
    assert _create(api, title="  Straße & Co.  ").json()["slug"] == "strasse-co"
    assert _create(api, title="!!!", type="how-to-guide").json()["slug"] == "how-to-guide"


def test_derived_slugs_are_suffixed_on_collision_per_type(api, other_organization):
    ContentItem.objects.create(organization=other_organization, type="post", title="News", slug="news")
    assert _create(api, title="News").json()["slug"] == "news"
    assert _create(api, title="News!").json()["slug"] == "news-2"
    assert _create(api, title="news").json()["slug"] == "news-3"
    assert _create(api, title="News", type="faq").json()["slug"] == "news"  # another type: its own namespace
    long_title = "wordy " * 33
    first = _create(api, title=long_title).json()["slug"]
    second = _create(api, title=long_title).json()["slug"]
    assert len(first) <= 200 and len(second) <= 200 and second.endswith("-2") and first != second


def test_a_given_slug_that_is_taken_is_409(api):
    first = _create(api, slug="hello").json()
    response = _create(api, slug="hello", title="Other")
    assert response.status_code == 409
    assert response.json()["code"] == "DUPLICATE_VALUE"
    assert response.json()["details"] == {"field": "slug", "existingId": first["id"]}
    assert ContentItem.objects.count() == 1
    assert _create(api, slug="hello", type="faq").status_code == 201
    other = _create(api, slug="other").json()
    clash = api.patch(f"{URL}/{other['id']}", {"slug": "hello"}, format="json")
    assert clash.status_code == 409 and clash.json()["details"]["existingId"] == first["id"]
    # moving an item into a type that holds its slug is the same conflict
    faq_hello = ContentItem.objects.get(type="faq", slug="hello")
    moved = api.patch(f"{URL}/{faq_hello.id}", {"type": "post"}, format="json")
    assert moved.status_code == 409 and moved.json()["details"]["existingId"] == first["id"]
    assert ContentItem.objects.get(pk=faq_hello.id).type == "faq"


def test_a_new_title_keeps_the_slug(api):
    item = _create(api, title="First title").json()
    body = api.patch(f"{URL}/{item['id']}", {"title": "Second title"}, format="json").json()
    assert body["title"] == "Second title" and body["slug"] == "first-title"


# --- publishing -----------------------------------------------------------------------------------------------------


def test_published_at_is_set_on_the_first_publish_and_kept(api):
    item = _create(api).json()
    url = f"{URL}/{item['id']}"
    assert api.patch(url, {"title": "Still a draft"}, format="json").json()["publishedAt"] is None
    published = api.patch(url, {"status": "published"}, format="json").json()
    assert published["publishedAt"] is not None
    unpublished = api.patch(url, {"status": "draft"}, format="json").json()
    assert unpublished["publishedAt"] == published["publishedAt"]
    again = api.patch(url, {"status": "published"}, format="json").json()
    assert again["publishedAt"] == published["publishedAt"]
    ignored = api.patch(url, {"publishedAt": "2020-01-01T00:00:00Z"}, format="json").json()
    assert ignored["publishedAt"] == published["publishedAt"]  # read-only: ignored


def test_created_published(api):
    assert _create(api, status="published").json()["publishedAt"] is not None
    assert _create(api, status="archived", title="Old").json()["publishedAt"] is None


# --- html and blocks ------------------------------------------------------------------------------------------------


def test_html_is_sanitized_on_write(api):
    dirty = '<p onclick="steal()">Hi<script>alert(1)</script> <a href="javascript:alert(1)">x</a> <b>bold</b></p>'
    body = _create(api, content={"html": dirty}).json()
    html = body["content"]["html"]
    assert "script" not in html and "onclick" not in html and "javascript" not in html
    assert "<b>bold</b>" in html and html.startswith("<p>Hi")
    assert ContentItem.objects.get(pk=body["id"]).html == html
    patched = api.patch(f"{URL}/{body['id']}", {"content": {"html": "<img src=x onerror=alert(1)>"}}, format="json")
    assert "onerror" not in patched.json()["content"]["html"]


def test_blocks_are_validated_for_shape(api):
    bad_documents = [
        [],
        {"blocks": "x"},
        {"items": []},
        {"blocks": [{"type": "video", "data": {}}]},
        {"blocks": [{"type": "header", "data": {"text": "x", "level": 7}}]},
        {"blocks": [{"type": "paragraph", "data": {}}]},
        {"blocks": [{"type": "paragraph", "data": {"text": "x", "extra": 1}}]},
        {"blocks": [{"type": "image", "data": {"url": "http://insecure.example.com/a.png"}}]},
        {"blocks": [{"type": "list", "data": {"style": "ordered", "items": [1]}}]},
        {"blocks": [{"type": "paragraph"}]},
    ]
    for document in bad_documents:
        fields = _fields(_create(api, content={"blocks": document}))
        assert list(fields) == ["content.blocks"], (document, fields)
    assert not ContentItem.objects.exists()


def test_blocks_are_limited_in_size_and_count(api):
    too_many = {"blocks": [{"type": "delimiter", "data": {}}] * 1001}
    assert "content.blocks" in _fields(_create(api, content={"blocks": too_many}))
    too_big = {"blocks": [{"type": "paragraph", "data": {"text": "x" * 20000}}] * 14}
    messages = _fields(_create(api, content={"blocks": too_big}))["content.blocks"]
    assert "bytes" in messages[0]
    just_enough = {"blocks": [{"type": "delimiter", "data": {}}] * 1000}
    assert _create(api, content={"blocks": just_enough}).status_code == 201


def test_every_block_type_is_accepted_and_inline_markup_sanitized(api):
    document = {
        "blocks": [
            {"type": "paragraph", "data": {"text": "<b>Bold</b><script>x()</script><img src=x>"}},
            {"type": "header", "data": {"text": "Title", "level": 1}},
            {"type": "list", "data": {"style": "unordered", "items": ["<i>one</i>", "<div>two</div>"]}},
            {"type": "quote", "data": {"text": "Q", "caption": "<a href='https://x.example' onclick='y'>C</a>"}},
            {"type": "image", "data": {"url": "https://cdn.example.com/a.png", "caption": "Pic", "alt": "A"}},
            {"type": "code", "data": {"code": "<script>kept as code</script>", "language": "html"}},
            {"type": "delimiter", "data": {}},
            {"type": "table", "data": {"withHeadings": True, "content": [["<b>h</b>", "<iframe></iframe>"]]}},
        ]
    }
    blocks = _create(api, content={"blocks": document}).json()["content"]["blocks"]["blocks"]
    assert blocks[0]["data"]["text"] == "<b>Bold</b>"
    assert blocks[2]["data"]["items"] == ["<i>one</i>", "two"]
    assert "onclick" not in blocks[3]["data"]["caption"] and "https://x.example" in blocks[3]["data"]["caption"]
    assert blocks[5]["data"]["code"] == "<script>kept as code</script>"  # code is text, shown escaped
    assert blocks[7]["data"]["content"] == [["<b>h</b>", ""]]


# --- summary and keywords -------------------------------------------------------------------------------------------


def test_summary_and_keywords_are_one_value_in_two_places(api):
    body = _create(api, summary="Top", keywords=["a", "a", "b"]).json()
    assert body["content"]["summary"] == body["summary"] == "Top"
    assert body["content"]["keywords"] == body["keywords"] == ["a", "b"]
    url = f"{URL}/{body['id']}"
    inner = api.patch(url, {"content": {"summary": "Inner", "keywords": ["k"]}}, format="json").json()
    assert inner["summary"] == "Inner" and inner["keywords"] == ["k"]
    same = api.patch(url, {"summary": "S", "content": {"summary": "S"}}, format="json")
    assert same.status_code == 200 and same.json()["summary"] == "S"
    fields = _fields(api.patch(url, {"summary": "A", "content": {"summary": "B"}}, format="json"))
    assert list(fields) == ["summary"]


# --- update and delete ----------------------------------------------------------------------------------------------


def test_patch_changes_only_what_is_sent_content_replaces_and_null_clears(api, organization):
    item = _create(api, excerpt="Ex", content={"html": "<p>a</p>", "summary": "S"}, tags=["x"], featured=True).json()
    url = f"{URL}/{item['id']}"
    body = api.patch(url, {"content": {"blocks": {"blocks": []}}, "excerpt": None, "featured": None}, format="json")
    assert body.status_code == 200, body.content
    body = body.json()
    assert body["content"] == {"html": None, "blocks": {"blocks": []}, "summary": None, "keywords": []}
    assert (
        body["excerpt"] is None
        and body["featured"] is None
        and body["tags"] == ["x"]
        and body["title"] == "Hello world"
    )
    for field in ("title", "type", "status", "visibility", "content", "tags", "images", "keywords"):
        assert field in _fields(api.patch(url, {field: None}, format="json"))


def test_update_event_names_the_changed_fields_and_only_when_something_changed(api):
    item = _create(api).json()
    url = f"{URL}/{item['id']}"
    api.patch(url, {"title": "Hello world"}, format="json")
    assert not DomainEvent.objects.filter(type="content_item.updated").exists()
    body = api.patch(url, {"status": "published", "tags": ["n"]}, format="json").json()
    event = DomainEvent.objects.get(type="content_item.updated")
    assert event.data == body
    assert set(event.changed_fields) == {"status", "publishedAt", "tags"}


def test_a_refused_update_changes_nothing_and_records_no_event(api):
    taken = _create(api, slug="taken").json()
    item = _create(api, slug="mine").json()
    response = api.patch(f"{URL}/{item['id']}", {"title": "New", "slug": taken["slug"]}, format="json")
    assert response.status_code == 409
    assert ContentItem.objects.get(pk=item["id"]).title == "Hello world"
    assert not DomainEvent.objects.filter(type="content_item.updated").exists()


def test_delete(api, organization, client_for):
    item = _create(api).json()
    assert client_for("content:read").delete(f"{URL}/{item['id']}").status_code == 403
    response = api.delete(f"{URL}/{item['id']}")
    assert response.status_code == 204 and response.content == b""
    assert not ContentItem.objects.filter(pk=item["id"]).exists()
    event = DomainEvent.objects.get(type="content_item.deleted")
    assert event.data["id"] == item["id"] and event.data["title"] == "Hello world"
    assert api.delete(f"{URL}/{item['id']}").status_code == 404


def test_another_organizations_item_is_404(api, other_organization):
    item = _item(other_organization)
    assert api.get(f"{URL}/{item.id}").status_code == 404
    assert api.patch(f"{URL}/{item.id}", {"title": "Mine"}, format="json").status_code == 404
    assert api.delete(f"{URL}/{item.id}").status_code == 404
    assert ContentItem.objects.get(pk=item.id).title == "T"
    assert api.get(URL).json()["total"] == 0


# --- content:read sees published items only -------------------------------------------------------------------------


def test_read_scope_alone_sees_published_items_only(organization, reader, client_for):
    published = _item(organization, title="Live", slug="live")
    draft = _item(organization, title="Draft", slug="draft", status="draft")
    archived = _item(organization, title="Old", slug="old", status="archived")
    listed = reader.get(URL).json()
    assert [row["id"] for row in listed["data"]] == [published.id] and listed["total"] == 1
    assert reader.get(f"{URL}/{published.id}").status_code == 200
    for hidden in (draft, archived):
        response = reader.get(f"{URL}/{hidden.id}")
        assert response.status_code == 404 and response.json()["code"] == "NOT_FOUND"
    assert reader.get(URL, {"status": "published"}).json()["total"] == 1
    fields = _fields(reader.get(URL, {"status": "draft"}))
    assert list(fields) == ["status"] and "content:write" in fields["status"][0]
    assert "status" in _fields(reader.get(URL, {"status": "published,draft"}))
    editor = client_for("content:read content:write")
    assert editor.get(URL).json()["total"] == 3
    assert [row["id"] for row in editor.get(URL, {"status": "draft"}).json()["data"]] == [draft.id]
    assert editor.get(URL, {"status": "draft,archived"}).json()["total"] == 2
    assert editor.get(f"{URL}/{draft.id}").status_code == 200
    assert "status" in _fields(editor.get(URL, {"status": "live"}))


def test_read_only_list_costs_the_same_queries_for_1_or_200_rows(organization, reader, django_assert_max_num_queries):
    _item(organization, slug="first")
    reader.get(URL)  # the key's first use writes last_used_at
    with django_assert_max_num_queries(3) as one:
        assert reader.get(URL, {"limit": 200}).json()["total"] == 1
    ContentItem.objects.bulk_create(
        [
            ContentItem(organization=organization, type="faq", title=f"F{i}", slug=f"f{i}", status="published")
            for i in range(199)
        ]
    )
    with django_assert_max_num_queries(len(one.captured_queries)):
        assert len(reader.get(URL, {"limit": 200}).json()["data"]) == 200


# --- filters and ordering -------------------------------------------------------------------------------------------


def test_filters(api, organization):
    a = _item(
        organization,
        type="post",
        slug="a",
        title="Padel tips",
        visibility="Public",
        language="en",
        tags=["tips"],
        featured=True,
    )
    b = _item(
        organization,
        type="faq",
        slug="b",
        title="Opening hours",
        excerpt="When is the PADEL club open",
        visibility="Private",
        language="es",
        tags=["club", "tips"],
    )
    c = _item(
        organization,
        type="how-to-guide",
        slug="c",
        title="Grip",
        html="<p>padel</p>",
        visibility="Member_only",
        featured=False,
    )

    def ids(**params):
        response = api.get(URL, params)
        assert response.status_code == 200, response.content
        return {row["id"] for row in response.json()["data"]}

    assert ids(type="post") == {a.id}
    assert ids(type="faq,how-to-guide") == {b.id, c.id}
    assert ids(visibility="Private,Member_only") == {b.id, c.id}
    assert ids(language="EN") == {a.id}
    assert ids(tag="tips") == {a.id, b.id}
    assert ids(tag="club") == {b.id}
    assert ids(featured="true") == {a.id}
    assert ids(featured="false") == {c.id}
    assert ids(q="padel") == {a.id, b.id}  # title and excerpt, not the body
    for params in ({"type": "news"}, {"visibility": "public"}, {"featured": "yes"}, {"ordering": "slug"}):
        assert set(_fields(api.get(URL, params))) == set(params) - {"ordering"} | (
            {"ordering"} if "ordering" in params else set()
        )


def test_ordering(api, organization):
    import datetime as dt

    from django.utils import timezone

    now = timezone.now()
    old = _item(organization, slug="old", title="beta", published_at=now - dt.timedelta(days=3))
    new = _item(organization, slug="new", title="Alpha", published_at=now - dt.timedelta(days=1))
    never = _item(organization, slug="never", title="gamma", status="draft")

    def order(ordering=None):
        params = {"ordering": ordering} if ordering else {}
        return [row["id"] for row in api.get(URL, params).json()["data"]]

    assert order() == [never.id, new.id, old.id]  # -createdAt
    assert order("-publishedAt") == [new.id, old.id, never.id]  # never published: last
    assert order("publishedAt") == [old.id, new.id, never.id]
    assert order("title") == [new.id, old.id, never.id]  # case-insensitive
    assert order("-title") == [never.id, old.id, new.id]
    assert order("createdAt") == [old.id, new.id, never.id]
