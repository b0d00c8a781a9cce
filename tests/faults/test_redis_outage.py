"""Redis stopped under a running API (a redis-server this test owns, on its own port): every request is still
answered, the rate limits fail open (full headers, a WARNING, the `/healthz` and `/metrics` counters), writes that
queue background work still answer 201, and the limits count again as soon as Redis is back, without a restart.
Both ways Redis can stop: dead (connections refused) and hung (connections accepted, never answered)."""

import datetime as dt
import http.client
import time

import orjson
import pytest
from django.utils import timezone

from tests.faults.own_redis import OwnRedis
from tests.server_env import gunicorn

pytestmark = pytest.mark.django_db(transaction=True)

ME = "/v1/platform/me"
# A hung Redis costs each command its socket timeout (REDIS_SOCKET_TIMEOUT_SECONDS, the broker's 5 s): a booking
# that counts its limits, moves the offers' version and queues a notification took 14 s on a loaded 2-core machine.
# Without the timeouts the broker's publish never returns.
ANSWER_WITHIN_SECONDS = 25


@pytest.fixture
def own_redis():
    redis = OwnRedis()
    yield redis
    redis.close()


@pytest.fixture
def server(settings, own_redis):
    with gunicorn(settings, env={"REDIS_URL": own_redis.url}) as server:
        yield server


def call(port: int, method: str, path: str, token: str | None = None, body: dict | None = None):
    """(status, body, headers) within ANSWER_WITHIN_SECONDS, or a timeout error."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=ANSWER_WITHIN_SECONDS)
    try:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        conn.request(method, path, body=orjson.dumps(body) if body is not None else None, headers=headers)
        response = conn.getresponse()
        return response.status, response.read(), response
    finally:
        conn.close()


def remaining(port: int, token: str) -> int:
    status, _, response = call(port, "GET", ME, token)
    assert status == 200
    return int(response.getheader("X-RateLimit-Remaining"))


def booking_body(area, contact, days: int) -> dict:
    start = (timezone.now() + dt.timedelta(days=days)).replace(minute=0, second=0, microsecond=0)
    return {
        "areaId": area.id,
        "contactId": contact.id,
        "startTime": start.isoformat(),
        "endTime": (start + dt.timedelta(hours=1)).isoformat(),
        "notifyCustomer": True,  # queues a notification after the commit: a message for the (stopped) broker
    }


def fail_open_counted(port: int) -> tuple[float, float]:
    """The fail-open count of `/healthz` (this worker) and of `/metrics` (every worker)."""
    status, body, _ = call(port, "GET", "/healthz")
    assert status == 200
    status, scrape, _ = call(port, "GET", "/metrics")
    assert status == 200
    (total,) = [
        float(line.split()[1]) for line in scrape.decode().splitlines() if line.startswith("ratelimit_fail_open_total ")
    ]
    return orjson.loads(body)["rateLimitFailOpen"], total


def assert_served_unlimited(server, token, area, contact, days):
    me_status, _, me = call(server.port, "GET", ME, token)
    assert me_status == 200
    assert me.getheader("X-RateLimit-Remaining") == me.getheader("X-RateLimit-Limit") == "100"
    status, body, _ = call(server.port, "POST", "/v1/platform/bookings", token, booking_body(area, contact, days))
    assert status == 201, body
    assert call(server.port, "GET", "/v1/public/search/clubs?lat=40.4&lng=-3.7")[0] == 200
    assert call(server.port, "GET", "/readyz")[0] == 503


def test_the_api_answers_unlimited_while_redis_is_stopped_and_counts_again_when_it_is_back(
    server, own_redis, make_token, area, contact
):
    token = make_token("*")  # after the server started: hashed with its pepper
    assert remaining(server.port, token) == 99
    # one server through both outages: dead (killed, then a fresh Redis), then hung (SIGSTOP, then SIGCONT)
    for stop, resume, days in ((own_redis.kill, own_redis.start, 3), (own_redis.freeze, own_redis.thaw, 4)):
        before = fail_open_counted(server.port)
        stop()
        assert_served_unlimited(server, token, area, contact, days=days)
        after = fail_open_counted(server.port)
        assert after[0] > before[0] and after[1] > before[1], stop.__name__
        log = server.log_text()
        assert "Rate-limit counting failed; letting the request through" in log
        assert "Broker unreachable: apps.notifications.tasks.deliver_notification not queued after the commit" in log

        resume()
        deadline = time.monotonic() + 20
        while (left := remaining(server.port, token)) == 100 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert left < 100, f"the limits never counted again after {resume.__name__}"
        assert remaining(server.port, token) == left - 1
        assert call(server.port, "GET", "/readyz")[0] == 200
