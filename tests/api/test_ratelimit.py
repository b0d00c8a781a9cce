"""Rate limits: headers, 429, special buckets, the multiplier, and one exact count across four gunicorn workers."""

import http.client
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from rest_framework.test import APIClient

from apps.api import ratelimit
from tests.server_env import gunicorn

from .conftest import PROBES, bearer

pytestmark = pytest.mark.urls("tests.api.urls_for_tests")

ME = "/v1/platform/me"
REPORTS = "/v1/platform/_test/reports-probe"
HEADERS = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset")
NEW_HEADERS = ("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "RateLimit-Policy")


def limits(response) -> tuple[int, int, int]:
    return tuple(int(response[h]) for h in HEADERS)


def test_headers_on_every_authenticated_response(api, contact):
    responses = [
        api.get(ME),
        api.get(PROBES),
        api.get(f"{PROBES}/123456"),  # 404
        api.post(PROBES, {}, format="json"),  # 400
        api.delete(PROBES),  # 405
        bearer(api._credentials["HTTP_AUTHORIZATION"].split()[1]).get(ME),
    ]
    for response in responses:
        for header in HEADERS + NEW_HEADERS:
            assert header in response, (response.status_code, header)
        assert response["RateLimit-Policy"] == "100;w=60"
        assert response["X-RateLimit-Limit"] == response["RateLimit-Limit"] == "100"
        assert response["X-RateLimit-Remaining"] == response["RateLimit-Remaining"]
        assert 1 <= int(response["X-RateLimit-Reset"]) <= 60


def test_scope_refusal_carries_headers(client_for):
    response = client_for("classes:read").get(PROBES)
    assert response.status_code == 403
    assert response["X-RateLimit-Limit"] == "100"


def test_no_headers_when_authentication_fails(db):
    response = APIClient().get(ME)
    assert response.status_code == 401
    assert not [h for h in response.headers if "ratelimit" in h.lower()]


def test_remaining_counts_down(api):
    remaining = [limits(api.get(ME))[1] for _ in range(3)]
    assert remaining == [99, 98, 97]


def test_101st_request_is_rate_limited(api):
    for i in range(100):
        response = api.get(ME)
        assert response.status_code == 200, i
    assert response["X-RateLimit-Remaining"] == "0"
    limited = api.get(ME)
    assert limited.status_code == 429
    body = limited.json()
    assert body["code"] == "RATE_LIMITED"
    assert body["error"] == "Too Many Requests"
    assert body["details"] == {"bucket": "general", "limit": 100, "windowSeconds": 60}
    retry_after = int(limited["Retry-After"])
    assert 1 <= retry_after <= 60
    assert limited["X-RateLimit-Remaining"] == "0"
    assert limited["X-RateLimit-Reset"] == limited["Retry-After"]


def test_buckets_are_per_credential(client_for, settings):
    settings.RATE_LIMIT_MULTIPLIER = 0.02  # 2 per window
    first, second = client_for("*"), client_for("*")
    first.get(ME), first.get(ME)
    assert first.get(ME).status_code == 429
    assert second.get(ME).status_code == 200


def test_special_bucket_counts_in_addition_to_general(api):
    for i in range(20):
        response = api.get(REPORTS)
        assert response.status_code == 200
        # the tightest bucket is described: reports (20) has fewer requests left than general (100)
        assert limits(response)[:2] == (20, 19 - i)
        assert response["RateLimit-Policy"] == "20;w=60"
    limited = api.get(REPORTS)
    assert limited.status_code == 429
    assert limited.json()["details"] == {"bucket": "reports", "limit": 20, "windowSeconds": 60}
    me = api.get(ME)
    assert me.status_code == 200
    assert limits(me)[:2] == (100, 100 - 22)  # 21 report requests and this one


def test_general_exhaustion_blocks_special_bucket_too(api, settings):
    settings.RATE_LIMIT_MULTIPLIER = 0.05  # general 5, reports 1
    for _ in range(5):
        api.get(ME)
    limited = api.get(REPORTS)
    assert limited.status_code == 429
    assert limited.json()["details"]["bucket"] == "general"


def test_multiplier_scales_every_bucket(api, settings):
    settings.RATE_LIMIT_MULTIPLIER = 2
    assert limits(api.get(ME))[0] == 200
    assert api.get(ME)["RateLimit-Policy"] == "200;w=60"
    assert limits(api.get(REPORTS))[0] == 40


def test_one_redis_round_trip_counts_both_buckets(api, monkeypatch):
    calls = []
    real = ratelimit._count

    def spy(keys, increment):
        calls.append((tuple(keys), increment))
        return real(keys, increment)

    monkeypatch.setattr(ratelimit, "_count", spy)
    api.get(REPORTS)
    # one read of the client address's failed-authentication count (before authentication), then one pipeline
    # counting the credential's two buckets
    assert [(len(keys), increment) for keys, increment in calls] == [(1, False), (2, True)]
    assert calls[0][0][0].startswith("rl:failed-authentication:addr:")


def test_cache_failure_fails_open(api, monkeypatch):
    def broken(keys, increment):
        raise ConnectionError("redis down")

    monkeypatch.setattr(ratelimit, "_count", broken)
    response = api.get(ME)
    assert response.status_code == 200
    assert response["X-RateLimit-Remaining"] == "100"


def test_window_end_is_stable_within_a_window_and_moves_after():
    end = ratelimit.window_end("api_key:1", now=1_000_000)
    assert 1_000_000 < end <= 1_000_060
    assert ratelimit.window_end("api_key:1", now=end - 1) == end
    assert ratelimit.window_end("api_key:1", now=end) == end + 60


# --- four real gunicorn workers sharing Redis, parallel clients ------------------------------------------------

CLIENTS, REQUESTS_EACH = 8, 8
LIMIT = 40  # the general bucket at RATE_LIMIT_MULTIPLIER 0.4: 64 requests, 24 over it


@pytest.fixture
def four_workers(transactional_db, settings):
    """One gunicorn with four worker processes serving the test database and the test Redis."""
    with gunicorn(settings, workers=4, env={"RATE_LIMIT_MULTIPLIER": "0.4"}) as server:
        yield server.port


def key_with_time_left(issue_key, seconds: float):
    """A fresh key whose current window (the servers run on the real clock) has at least `seconds` left: windows
    are offset per credential, so one of a few keys does, and nobody waits for a window to turn."""
    for _ in range(20):
        key, token = issue_key()
        if ratelimit.window_end(f"api_key:{key.pk}", int(time.time())) - time.time() >= seconds:
            return token
    raise AssertionError("no key with enough of its window left")


def test_the_limit_holds_exactly_across_four_workers_under_parallel_clients(four_workers, issue_key):
    token = key_with_time_left(issue_key, 40)
    barrier = threading.Barrier(CLIENTS)

    def client() -> list[tuple[int, int]]:
        answers = []
        barrier.wait(timeout=30)
        for _ in range(REQUESTS_EACH):
            conn = http.client.HTTPConnection("127.0.0.1", four_workers, timeout=20)
            conn.request("GET", ME, headers={"Authorization": f"Bearer {token}"})
            response = conn.getresponse()
            response.read()
            answers.append((response.status, int(response.getheader("X-RateLimit-Remaining"))))
            conn.close()
        return answers

    with ThreadPoolExecutor(CLIENTS) as pool:
        answers = [answer for answers in pool.map(lambda _: client(), range(CLIENTS)) for answer in answers]
    statuses = [status for status, _ in answers]
    assert (statuses.count(200), statuses.count(429)) == (LIMIT, CLIENTS * REQUESTS_EACH - LIMIT)
    # one count whichever worker answered: each admitted request saw a different remainder
    assert sorted(remaining for status, remaining in answers if status == 200) == list(range(LIMIT))
    assert {remaining for status, remaining in answers if status == 429} == {0}
