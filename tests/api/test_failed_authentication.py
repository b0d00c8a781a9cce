"""The per-address bucket on failed authentication: 429 TOO_MANY_FAILED_AUTHENTICATIONS, before any database work."""

import time

import pytest
from rest_framework.test import APIClient

from apps.api import ratelimit
from apps.organizations.models import Organization

from .conftest import bearer

ME = "/v1/platform/me"
REAL_TIME = time.time  # before a test moves the limiter's clock
BAD_TOKEN = "sk_live_notarealkeyatall_0000000000000000000000"


@pytest.fixture(autouse=True)
def _three_failures_per_window(settings):
    settings.RATE_LIMIT_MULTIPLIER = 0.05  # failed authentication: 3 per window (general: 5)


def client_from(address: str, token: str | None = BAD_TOKEN, **meta) -> APIClient:
    client = bearer(token) if token else APIClient()
    client.defaults.update(REMOTE_ADDR=address, **meta)
    return client


def fail(client, times: int):
    for _ in range(times):
        assert client.get(ME).status_code == 401


def assert_refused(response):
    assert response.status_code == 429, response.content
    body = response.json()
    retry_after = int(response["Retry-After"])
    assert 1 <= retry_after <= 60
    assert body == {
        "error": "Too Many Requests",
        "message": f"Too many requests with a missing or invalid credential from this address; retry in {retry_after} "
        "seconds.",
        "code": "TOO_MANY_FAILED_AUTHENTICATIONS",
        "details": {"retryAfter": retry_after},
    }
    assert not [h for h in response.headers if "ratelimit" in h.lower()]


def test_the_request_after_the_limit_is_429_with_retry_after(db):
    client = client_from("203.0.113.7")
    fail(client, 3)
    assert_refused(client.get(ME))


def test_refusal_happens_before_any_database_work(db, make_token, django_assert_num_queries):
    fail(client_from("203.0.113.7"), 3)
    valid_key_same_address = client_from("203.0.113.7", make_token())
    with django_assert_num_queries(0):
        assert_refused(client_from("203.0.113.7").post("/v1/platform/contacts", {"firstName": "X"}, format="json"))
        assert_refused(valid_key_same_address.get(ME))


def test_missing_and_malformed_credentials_count(db):
    fail(client_from("203.0.113.7", token=None), 2)
    malformed = client_from("203.0.113.7", token=None, HTTP_AUTHORIZATION="Basic abc")
    assert malformed.get(ME).status_code == 401
    assert_refused(malformed.get(ME))


def test_the_organization_lock_counts(organization, make_token):
    client = client_from("203.0.113.7", make_token())  # minted while the organization was active
    Organization.objects.filter(pk=organization.pk).update(status="inactive")
    for _ in range(3):
        assert client.get(ME).json()["code"] == "ORGANIZATION_NOT_ACTIVE"
    assert_refused(client.get(ME))


def test_accepted_credentials_do_not_count(db, make_token):
    good = client_from("203.0.113.7", make_token())
    for _ in range(5):
        assert good.get(ME).status_code == 200
    fail(client_from("203.0.113.7"), 3)


def test_other_addresses_are_not_affected(db):
    fail(client_from("203.0.113.7"), 3)
    assert client_from("203.0.113.8").get(ME).status_code == 401


def test_ipv6_clients_share_a_bucket_per_64(db):
    fail(client_from("2001:db8:1:2::1"), 2)
    fail(client_from("2001:db8:1:2::ffff"), 1)
    assert_refused(client_from("2001:db8:1:2:abcd::9").get(ME))
    assert client_from("2001:db8:1:3::1").get(ME).status_code == 401


def test_forwarded_for_is_ignored_without_trusted_proxies(db):
    for i in range(3):
        assert client_from("203.0.113.7", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}").get(ME).status_code == 401
    assert_refused(client_from("203.0.113.7", HTTP_X_FORWARDED_FOR="198.51.100.99").get(ME))


def test_behind_one_trusted_proxy_the_client_is_the_last_forwarded_entry(db, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    proxy = "10.0.0.1"
    for i in range(3):  # the client writes its own entries on the left; only the proxy's entry counts
        forwarded = f"198.51.100.{i}, 203.0.113.7"
        assert client_from(proxy, HTTP_X_FORWARDED_FOR=forwarded).get(ME).status_code == 401
    assert_refused(client_from(proxy, HTTP_X_FORWARDED_FOR="1.2.3.4, 203.0.113.7").get(ME))
    assert client_from(proxy, HTTP_X_FORWARDED_FOR="203.0.113.8").get(ME).status_code == 401


def test_two_trusted_proxies_and_a_short_header_fall_back_to_the_peer(db, settings):
    settings.TRUSTED_PROXY_COUNT = 2
    fail(client_from("10.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.7, 10.0.0.2"), 3)
    assert_refused(client_from("10.0.0.9", HTTP_X_FORWARDED_FOR="9.9.9.9, 203.0.113.7, 10.0.0.3").get(ME))
    fail(client_from("10.0.0.1", HTTP_X_FORWARDED_FOR="garbage"), 3)  # too short: the peer's own bucket
    assert_refused(client_from("10.0.0.1").get(ME))


def test_a_well_behaved_client_reads_the_address_count_at_most_once_a_second(db, make_token, monkeypatch):
    reads = []
    real = ratelimit._failed_authentication_state
    monkeypatch.setattr(
        ratelimit, "_failed_authentication_state", lambda *args, **kw: reads.append(args) or real(*args, **kw)
    )
    client = client_from("203.0.113.9", make_token())
    for _ in range(4):
        assert client.get(ME).status_code == 200
    assert len(reads) == 1
    monkeypatch.setattr(ratelimit.time, "time", lambda: REAL_TIME() + ratelimit.CLEAR_MEMO_SECONDS + 0.1)
    assert client.get(ME).status_code == 200
    assert len(reads) == 2


def test_a_flood_counted_by_other_processes_is_refused_here_within_a_second(db, monkeypatch):
    # Start 5 s into a window of the address's bucket, so that the clock moved below stays inside that window.
    window_start = ratelimit.window_end("addr:203.0.113.10", int(REAL_TIME())) - ratelimit.WINDOW_SECONDS
    start = window_start + 5
    monkeypatch.setattr(ratelimit.time, "time", lambda: start)
    client = client_from("203.0.113.10")
    fail(client, 1)  # this process now remembers the address as under its limit
    for _ in range(2):  # two more failures counted by other processes sharing the cache
        ratelimit.count_failed_authentication("203.0.113.10")
    ratelimit._blocked_until.pop("203.0.113.10", None)  # ... which this process did not see
    monkeypatch.setattr(ratelimit.time, "time", lambda: start + ratelimit.CLEAR_MEMO_SECONDS + 0.1)
    assert_refused(client.get(ME))
