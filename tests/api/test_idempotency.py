"""Idempotency-Key on POST."""

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from apps.api.models import IdempotencyRecord
from apps.contacts.models import Contact

from .conftest import PROBES, bearer

pytestmark = pytest.mark.urls("tests.api.urls_for_tests")


def post(client, body, key, path=PROBES, **extra):
    return client.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY=key, **extra)


def test_replay_returns_the_same_response_without_a_second_side_effect(api, organization):
    first = post(api, {"firstName": "Zoe"}, "key-1")
    assert first.status_code == 201
    assert "Idempotent-Replayed" not in first
    second = post(api, {"firstName": "Zoe"}, "key-1")
    assert second.status_code == 201
    assert second.json() == first.json()
    assert second["Location"] == first["Location"]
    assert second["Idempotent-Replayed"] == "true"
    assert Contact.objects.filter(organization=organization).count() == 1


def test_body_key_order_does_not_matter(api):
    post(api, {"firstName": "Zoe", "fail": False}, "k")
    replay = api.generic(
        "POST",
        PROBES,
        b'{"fail": false, "firstName": "Zoe"}',
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="k",
    )
    assert replay["Idempotent-Replayed"] == "true"


def test_replay_counts_against_the_rate_limit(api):
    first = post(api, {"firstName": "Zoe"}, "k")
    replay = post(api, {"firstName": "Zoe"}, "k")
    assert int(replay["X-RateLimit-Remaining"]) == int(first["X-RateLimit-Remaining"]) - 1


@pytest.mark.parametrize(
    "second",
    [
        {"body": {"firstName": "Other"}},
        {"body": {"firstName": "Zoe"}, "path": "/v1/platform/_test/probes/plain"},
        {"body": {"firstName": "Zoe"}, "path": f"{PROBES}?x=1"},
    ],
)
def test_same_key_for_a_different_request_is_422(api, second):
    assert post(api, {"firstName": "Zoe"}, "k").status_code == 201
    response = post(api, second["body"], "k", path=second.get("path", PROBES))
    assert response.status_code == 422
    assert response.json()["code"] == "IDEMPOTENCY_KEY_REUSED"
    assert response.json()["error"] == "Unprocessable Entity"
    assert Contact.objects.count() == 1


@pytest.mark.parametrize("key", ["", "x" * 256, "clé", "tab\there"])
def test_malformed_key_is_400(api, key):
    response = post(api, {"firstName": "Zoe"}, key)
    assert response.status_code == 400
    assert response.json()["code"] == "INVALID_IDEMPOTENCY_KEY"
    assert not Contact.objects.exists()


def test_longest_valid_key(api):
    assert post(api, {"firstName": "Zoe"}, "k" * 255).status_code == 201
    assert post(api, {"firstName": "Zoe"}, "k" * 255)["Idempotent-Replayed"] == "true"


@pytest.mark.parametrize("body", [{"firstName": "Zoe", "fail": True}, {"firstName": ""}])
def test_errors_are_not_stored_and_a_retry_runs_again(api, body):
    first = post(api, body, "k")
    assert first.status_code in (400, 409)
    retry = post(api, body, "k")
    assert retry.status_code == first.status_code
    assert "Idempotent-Replayed" not in retry
    assert not IdempotencyRecord.objects.exists()


def test_a_500_releases_the_key(api):
    first = post(api, {}, "k", path="/v1/platform/_test/boom")
    assert first.status_code == 500
    assert post(api, {}, "k", path="/v1/platform/_test/boom").status_code == 500
    assert Contact.objects.filter(first_name="boom").count() == 2
    assert not IdempotencyRecord.objects.exists()


def test_a_429_is_not_stored(api, settings):
    settings.RATE_LIMIT_MULTIPLIER = 0.01  # one request per window
    assert post(api, {"firstName": "Zoe"}, "k").status_code == 201
    assert post(api, {"firstName": "Zoe"}, "k2").status_code == 429
    assert not IdempotencyRecord.objects.filter(key="k2").exists()


def test_scoped_per_organization(client_for, organization, other_organization):
    mine, theirs = client_for("*"), client_for("*", other_organization)
    assert post(mine, {"firstName": "Zoe"}, "shared").status_code == 201
    other = post(theirs, {"firstName": "Zoe"}, "shared")
    assert other.status_code == 201
    assert "Idempotent-Replayed" not in other
    assert Contact.objects.filter(organization=other_organization).count() == 1
    different = post(theirs, {"firstName": "Different"}, "shared")  # different body for org 2's own key
    assert different.status_code == 422


def test_keys_are_per_credential_not_per_organization(client_for, organization):
    """A second key of the same organization neither replays the first key's response nor is blocked by it."""
    first, second = client_for("*"), client_for("*")
    assert post(first, {"firstName": "Zoe"}, "shared").status_code == 201
    same_body = post(second, {"firstName": "Zoe"}, "shared")
    assert same_body.status_code == 201
    assert "Idempotent-Replayed" not in same_body
    assert Contact.objects.filter(organization=organization, first_name="Zoe").count() == 2
    own_replay = post(second, {"firstName": "Zoe"}, "shared")
    assert own_replay["Idempotent-Replayed"] == "true"
    assert own_replay.json() == same_body.json()


def test_a_key_claimed_by_one_credential_is_free_for_another(client_for):
    first, second = client_for("*"), client_for("*")
    assert post(first, {"firstName": "Zoe"}, "pre-claimed").status_code == 201
    other_body = post(second, {"firstName": "Other"}, "pre-claimed")
    assert other_body.status_code == 201
    assert other_body.json()["firstName"] == "Other"


def test_replay_never_shows_fields_the_replaying_credential_may_not_read(client_for, area, contact):
    body = {
        "areaId": area.id,
        "contactId": contact.id,
        "startTime": "2031-03-03T10:00:00Z",
        "endTime": "2031-03-03T11:00:00Z",
    }
    wide = post(client_for("bookings:write contacts:read"), body, "booking-1", path="/v1/platform/bookings")
    assert wide.status_code == 201, wide.content
    assert wide.json()["contactEmail"] == "ana@example.com"
    narrow = post(client_for("bookings:write"), body, "booking-1", path="/v1/platform/bookings")
    assert "Idempotent-Replayed" not in narrow
    assert narrow.status_code == 409  # its own execution: the slot is taken
    assert "ana@example.com" not in narrow.content.decode()


def test_query_string_longer_than_the_stored_path_is_served_and_replayed(api):
    long_path = f"{PROBES}?note={'x' * 2500}"
    first = post(api, {"firstName": "Zoe"}, "long", path=long_path)
    assert first.status_code == 201, first.content
    assert post(api, {"firstName": "Zoe"}, "long", path=long_path)["Idempotent-Replayed"] == "true"
    differs_past_the_prefix = post(api, {"firstName": "Zoe"}, "long", path=long_path + "y")
    assert differs_past_the_prefix.status_code == 422
    assert differs_past_the_prefix.json()["code"] == "IDEMPOTENCY_KEY_REUSED"
    assert Contact.objects.count() == 1


def test_ignored_on_non_post(api, contact):
    for _ in range(2):
        response = api.patch(f"{PROBES}/{contact.id}", {"firstName": "B"}, format="json", HTTP_IDEMPOTENCY_KEY="")
        assert response.status_code == 200
        assert "Idempotent-Replayed" not in response
    assert api.get(PROBES, HTTP_IDEMPOTENCY_KEY="x" * 300).status_code == 200
    assert not IdempotencyRecord.objects.exists()


def test_plain_django_response_is_stored_and_replayed(api):
    first = post(api, {}, "k", path="/v1/platform/_test/probes/plain")
    replay = post(api, {}, "k", path="/v1/platform/_test/probes/plain")
    assert first.status_code == replay.status_code == 201
    assert replay.json() == first.json()
    assert replay["Idempotent-Replayed"] == "true"
    assert Contact.objects.filter(first_name="plain").count() == 1


def test_expired_record_is_replaced(api):
    post(api, {"firstName": "Zoe"}, "k")
    IdempotencyRecord.objects.update(created_at=timezone.now() - timedelta(hours=25))
    again = post(api, {"firstName": "Other"}, "k")
    assert again.status_code == 201
    assert "Idempotent-Replayed" not in again
    assert Contact.objects.count() == 2


def test_stale_in_progress_record_is_taken_over(issue_key, organization):
    key, token = issue_key()
    IdempotencyRecord.objects.create(
        organization=organization,
        credential_key=f"api_key:{key.pk}",
        key="k",
        method="POST",
        path=PROBES,
        body_hash="x",
    )
    IdempotencyRecord.objects.update(created_at=timezone.now() - timedelta(minutes=10))
    assert post(bearer(token), {"firstName": "Zoe"}, "k").status_code == 201


@pytest.mark.django_db(transaction=True)
def test_concurrent_request_with_the_same_key_is_409(make_token, organization):
    token = make_token("*")
    slow_client, fast_client = bearer(token), bearer(token)
    body = {"firstName": "Slow", "sleep": 1.5}
    results = {}

    def slow():
        try:
            results["slow"] = post(slow_client, body, "race")
        finally:
            connection.close()

    thread = threading.Thread(target=slow)
    thread.start()
    deadline = time.monotonic() + 5
    while not IdempotencyRecord.objects.filter(key="race").exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    in_flight = post(fast_client, body, "race")
    reused = post(fast_client, {"firstName": "Other"}, "race")
    thread.join(10)

    assert in_flight.status_code == 409
    assert in_flight.json()["code"] == "IDEMPOTENCY_KEY_IN_PROGRESS"
    assert reused.status_code == 422
    assert results["slow"].status_code == 201
    replay = post(fast_client, body, "race")
    assert replay.status_code == 201
    assert replay["Idempotent-Replayed"] == "true"
    assert replay.json() == results["slow"].json()
    assert Contact.objects.filter(first_name="Slow").count() == 1


def test_purge_task_drops_records_older_than_a_day(api):
    from apps.api.tasks import purge_idempotency_records

    post(api, {"firstName": "Old"}, "old")
    post(api, {"firstName": "New"}, "new")
    IdempotencyRecord.objects.filter(key="old").update(created_at=timezone.now() - timedelta(hours=25))
    assert purge_idempotency_records.delay().get() == 1
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["new"]
