"""The list page `{data, total, limit, offset}`."""

import pytest
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from apps.api.pagination import forget_large_totals
from apps.contacts.models import Contact

from .conftest import PROBES

pytestmark = pytest.mark.urls("tests.api.urls_for_tests")


@pytest.fixture
def rows(organization, other_organization):
    Contact.objects.bulk_create([Contact(organization=other_organization, first_name="Foreign")] * 3)
    return Contact.objects.bulk_create([Contact(organization=organization, first_name=f"C{i}") for i in range(230)])


def test_default_page(api, rows):
    body = api.get(PROBES).json()
    assert set(body) == {"data", "total", "limit", "offset"}
    assert body["total"] == 230
    assert body["limit"] == 50
    assert body["offset"] == 0
    assert [r["id"] for r in body["data"]] == [r.id for r in rows[:50]]


def test_limit_and_offset(api, rows):
    body = api.get(f"{PROBES}?limit=10&offset=225").json()
    assert body == {
        "data": [{"id": r.id, "firstName": r.first_name} for r in rows[225:]],
        "total": 230,
        "limit": 10,
        "offset": 225,
    }


def test_limit_is_clamped_to_200_and_echoed(api, rows):
    body = api.get(f"{PROBES}?limit=1000").json()
    assert body["limit"] == 200
    assert len(body["data"]) == 200


def test_offset_past_the_end(api, rows):
    body = api.get(f"{PROBES}?offset=500").json()
    assert body["data"] == [] and body["total"] == 230 and body["offset"] == 500


def test_empty_list(api):
    assert api.get(PROBES).json() == {"data": [], "total": 0, "limit": 50, "offset": 0}


@pytest.mark.parametrize(
    "query,field",
    [
        ("limit=0", "limit"),
        ("limit=-5", "limit"),
        ("limit=abc", "limit"),
        ("limit=1.5", "limit"),
        ("offset=-1", "offset"),
        ("offset=x", "offset"),
    ],
)
def test_bad_page_params_are_400(api, query, field):
    response = api.get(f"{PROBES}?{query}")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "VALIDATION_ERROR"
    assert list(body["details"]["fields"]) == [field]


def test_both_bad_params_reported_together(api):
    fields = api.get(f"{PROBES}?limit=0&offset=-1").json()["details"]["fields"]
    assert set(fields) == {"limit", "offset"}


def test_unknown_query_params_are_ignored(api, rows):
    assert api.get(f"{PROBES}?colour=blue&limit=5").json()["limit"] == 5


def test_query_count_is_constant(api, rows):
    api.get(PROBES)
    with CaptureQueriesContext(connection) as queries:
        api.get(f"{PROBES}?limit=200")
    assert len(queries) == 3  # credential, count, page


@pytest.fixture
def fresh_totals():
    forget_large_totals()
    yield
    forget_large_totals()


def count_queries(api, path) -> tuple[int, int]:
    """(the page's total, how many COUNT queries answering it cost)."""
    with CaptureQueriesContext(connection) as queries:
        total = api.get(path).json()["total"]
    return total, sum("COUNT(" in query["sql"].upper() for query in queries)


# Committed writes move the data version a reused total is checked against: these tests commit (transactional_db).
@pytest.mark.django_db(transaction=True)
@override_settings(LIST_TOTAL_CACHE_ROWS=100, LIST_TOTAL_CACHE_SECONDS=60)
def test_a_large_total_is_reused_until_a_write_commits_and_a_small_one_counted(api, rows, organization, fresh_totals):
    assert count_queries(api, PROBES) == (230, 1)
    assert count_queries(api, PROBES) == (230, 0)  # at least LIST_TOTAL_CACHE_ROWS: reused
    assert count_queries(api, f"{PROBES}?limit=10") == (230, 0)  # the same list, another page size
    Contact.objects.create(organization=organization, first_name="New")
    assert count_queries(api, PROBES) == (231, 1)  # a committed write: counted again, never stale
    assert count_queries(api, PROBES) == (231, 0)
    Contact.objects.filter(pk__in=[r.pk for r in rows[:200]]).delete()
    assert count_queries(api, PROBES) == (31, 1)  # below the threshold: counted every time
    assert count_queries(api, PROBES) == (31, 1)


@pytest.mark.django_db(transaction=True)
@override_settings(LIST_TOTAL_CACHE_ROWS=100, LIST_TOTAL_CACHE_SECONDS=0)
def test_large_totals_are_counted_every_time_when_the_cache_is_off(api, rows, organization, fresh_totals):
    assert count_queries(api, PROBES) == (230, 1)
    assert count_queries(api, PROBES) == (230, 1)


@pytest.mark.django_db(transaction=True)
@override_settings(LIST_TOTAL_CACHE_ROWS=100, LIST_TOTAL_CACHE_SECONDS=60, API_PAGE_CACHE_SECONDS=0)
def test_a_large_total_is_reused_with_the_page_cache_off_too(api, rows, organization, fresh_totals):
    assert count_queries(api, "/v1/platform/contacts?limit=1") == (230, 1)
    assert count_queries(api, "/v1/platform/contacts?limit=1") == (230, 0)  # the page computed, its total reused
    Contact.objects.create(organization=organization, first_name="New")
    assert count_queries(api, "/v1/platform/contacts?limit=1") == (231, 1)


@pytest.mark.django_db(transaction=True)
@override_settings(LIST_TOTAL_CACHE_ROWS=100, LIST_TOTAL_CACHE_SECONDS=60)
def test_a_resource_list_reuses_its_large_total_too(api, rows, organization, fresh_totals):
    assert count_queries(api, "/v1/platform/contacts?limit=1") == (230, 1)
    assert count_queries(api, "/v1/platform/contacts?limit=2") == (230, 0)  # another page of the same list
    Contact.objects.create(organization=organization, first_name="New")
    assert count_queries(api, "/v1/platform/contacts?limit=3") == (231, 1)
    assert count_queries(api, "/v1/platform/contacts?limit=1&q=New")[0] == 1  # another list: counted
