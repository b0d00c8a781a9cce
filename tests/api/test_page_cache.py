"""Stored list pages (apps/api/pagecache.py): the same bytes as a computed page, never another caller's, never
after a committed write or past the moment a time-dependent value changes; every rule still runs per request.

These tests commit (`transaction=True`): a page is only stored outside a transaction that has written.
"""

import datetime as dt
import time

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext, override_settings
from django.utils import timezone

from apps.api import pagecache
from apps.classes.models import ClassOccurrence
from apps.organizations.models import ApiKey
from apps.organizations.services import revoke_api_keys
from tests.factories import make_class, make_club, make_contact

committing = pytest.mark.django_db(transaction=True)

CLASSES = "/v1/platform/classes?limit=100"


def computed(client, path):
    """The page as computed with the cache off."""
    with override_settings(API_PAGE_CACHE_SECONDS=0):
        response = client.get(path)
    assert response.status_code == 200
    assert "ETag" not in response
    return response.content


@committing
def test_a_stored_page_is_the_computed_page_and_costs_only_the_credential_lookup(organization, client_for):
    club = make_club(organization)
    for hour in range(3):
        make_class(organization, club, start=timezone.now() + dt.timedelta(days=1, hours=hour))
    client = client_for("*")
    first = client.get(CLASSES)
    with CaptureQueriesContext(connection) as queries:
        second = client.get(CLASSES)
    assert len(queries) == 1, [q["sql"][:80] for q in queries]  # the API key; no page, count or instructor query
    assert first.status_code == second.status_code == 200
    assert second.content == first.content == computed(client, CLASSES)
    assert second["ETag"] == first["ETag"]
    assert int(second["X-RateLimit-Remaining"]) == int(first["X-RateLimit-Remaining"]) - 1  # still counted


@committing
def test_any_committed_write_moves_the_page_on(organization, client_for):
    club = make_club(organization)
    yoga = make_class(organization, club, name="Yoga")
    client = client_for("*")
    assert client.get(CLASSES).json()["data"][0]["name"] == "Yoga"

    ClassOccurrence.objects.filter(pk=yoga.pk).update(name="Pilates")  # no model signal
    assert client.get(CLASSES).json()["data"][0]["name"] == "Pilates"

    with transaction.atomic():
        make_class(organization, club, start=yoga.start_time + dt.timedelta(hours=1), name="Boxing")
    body = client.get(CLASSES)
    assert [c["name"] for c in body.json()["data"]] == ["Pilates", "Boxing"]
    assert body.content == computed(client, CLASSES)

    with pytest.raises(RuntimeError), transaction.atomic():  # rolled back: nothing to show
        ClassOccurrence.objects.filter(pk=yoga.pk).update(name="Rolled back")
        raise RuntimeError
    assert client.get(CLASSES).content == body.content


@committing
def test_a_write_in_the_reading_transaction_is_seen(organization, client_for):
    club = make_club(organization)
    make_class(organization, club, name="Yoga")
    client = client_for("*")
    client.get(CLASSES)
    with transaction.atomic():
        ClassOccurrence.objects.update(name="Spin")
        assert client.get(CLASSES).json()["data"][0]["name"] == "Spin"
        transaction.set_rollback(True)
    assert client.get(CLASSES).json()["data"][0]["name"] == "Yoga"


@committing
def test_pages_are_per_credential_and_organization(organization, other_organization, client_for):
    make_contact(organization, "Ana", email="ana@example.com")
    make_contact(other_organization, "Bob", email="bob@example.com")
    path = "/v1/platform/contacts?limit=10"
    full = client_for("*").get(path).json()["data"]
    narrow = client_for(["contacts:read"]).get(path).json()["data"]
    other = client_for("*", other_organization).get(path).json()["data"]
    assert [c["firstName"] for c in full] == [c["firstName"] for c in narrow] == ["Ana"]
    assert [c["firstName"] for c in other] == ["Bob"]


@committing
def test_time_status_follows_the_clock(organization, client_for):
    club = make_club(organization)
    start = timezone.now() - dt.timedelta(hours=1)
    ends = timezone.now() + dt.timedelta(seconds=1.5)
    make_class(organization, club, start=start, end_time=ends)
    client = client_for("*")
    assert client.get(CLASSES).json()["data"][0]["timeStatus"] == "upcoming"
    assert client.get(CLASSES).json()["data"][0]["timeStatus"] == "upcoming"  # stored
    time.sleep(max(0.0, (ends - timezone.now()).total_seconds()) + 0.1)
    assert client.get(CLASSES).json()["data"][0]["timeStatus"] == "past"
    assert client.get(f"{CLASSES}&timeStatus=upcoming").json()["total"] == 0


@committing
def test_revocation_and_rate_limits_still_apply(organization, make_token):
    from rest_framework.test import APIClient

    make_club(organization)
    token = make_token("*")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    assert client.get(CLASSES).status_code == 200
    with override_settings(RATE_LIMIT_MULTIPLIER=0.01):  # a general bucket of 1 request: this one is the second
        limited = client.get(CLASSES)
    assert limited.status_code == 429
    revoke_api_keys(ApiKey.objects.filter(organization=organization))
    assert client.get(CLASSES).status_code == 401


@committing
def test_if_none_match_answers_304_without_a_body(organization, client_for):
    make_club(organization)
    client = client_for("*")
    first = client.get(CLASSES)
    unchanged = client.get(CLASSES, HTTP_IF_NONE_MATCH=first["ETag"])
    assert unchanged.status_code == 304
    assert unchanged.content == b""
    assert unchanged["ETag"] == first["ETag"]
    assert "X-RateLimit-Remaining" in unchanged
    assert client.get(CLASSES, HTTP_IF_NONE_MATCH='"other"').status_code == 200


@pytest.mark.parametrize(
    ("sql", "writes"),
    [
        ('SELECT "a" FROM "t"', False),
        ("(SELECT 1) UNION (SELECT 2)", False),
        ('SAVEPOINT "s1"', False),
        ("WITH x AS (SELECT 1) SELECT * FROM x", False),
        ('INSERT INTO "t" VALUES (1)', True),
        ('  update "t" SET a = 1', True),
        ('DELETE FROM "t"', True),
        ("WITH gone AS (DELETE FROM t RETURNING id) SELECT count(*) FROM gone", True),
        ("TRUNCATE t", True),
    ],
)
def test_statement_classification(sql, writes):
    assert pagecache.is_write(sql) is writes


def test_no_page_is_kept_without_a_cache_every_process_shares():
    with override_settings(CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}):
        assert not pagecache.usable(ClassOccurrence)


@committing
def test_a_credential_noting_its_last_use_leaves_the_pages_stored(organization, client_for):
    make_club(organization)
    first, second = client_for("*"), client_for("*")
    first.get(CLASSES)  # stored
    assert second.get(CLASSES).status_code == 200  # a new key: its first request notes its last use (an UPDATE)
    assert ApiKey.objects.filter(organization=organization, last_used_at__isnull=True).count() == 0
    with CaptureQueriesContext(connection) as queries:
        assert first.get(CLASSES).status_code == 200
    assert len(queries) == 1, [q["sql"][:80] for q in queries]  # the API key: the stored page held
