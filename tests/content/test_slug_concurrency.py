"""Concurrent creates on real parallel PostgreSQL connections: derived slugs never collide, and a given slug is
taken once (the others are 409 DUPLICATE_VALUE, never a 500)."""

import pytest

from apps.content.models import ContentItem
from tests.concurrency import race

URL = "/v1/platform/content-items"


@pytest.mark.django_db(transaction=True)
def test_parallel_creates_with_one_title_get_distinct_slugs(organization, client_for):
    clients = [client_for("content:write") for _ in range(6)]
    body = {"title": "Summer camp", "type": "post"}
    results = race([lambda c=c: c.post(URL, body, format="json") for c in clients])
    assert [r.status_code for r in results] == [201] * 6, [r.content[:200] for r in results]
    slugs = sorted(ContentItem.objects.values_list("slug", flat=True))
    assert slugs == sorted(["summer-camp"] + [f"summer-camp-{n}" for n in range(2, 7)])


@pytest.mark.django_db(transaction=True)
def test_parallel_creates_with_one_given_slug_take_it_once(organization, client_for):
    clients = [client_for("content:write") for _ in range(4)]
    body = {"title": "Camp", "type": "faq", "slug": "camp"}
    results = race([lambda c=c: c.post(URL, body, format="json") for c in clients])
    assert sorted(r.status_code for r in results) == [201, 409, 409, 409], [r.content[:200] for r in results]
    winner = ContentItem.objects.get()
    assert {r.json()["details"]["existingId"] for r in results if r.status_code == 409} == {winner.id}
    assert {r.json()["code"] for r in results if r.status_code == 409} == {"DUPLICATE_VALUE"}
