"""GET /metrics over HTTP: who may read it, and that its numbers move with the traffic."""

import pytest
from django.test import Client
from prometheus_client.parser import text_string_to_metric_families
from rest_framework.test import APIClient

from apps.observability import collectors

METRICS = "/metrics"
TOKEN = "metrics-token-0123456789abcdef"


@pytest.fixture(autouse=True)
def _metrics_settings(settings):
    settings.METRICS_ALLOWED_NETWORKS = ["127.0.0.1/32", "::1/128", "10.20.0.0/16"]
    settings.METRICS_TOKEN = TOKEN


def samples(response) -> dict:
    """{(name, frozenset(labels)): value} of an exposition."""
    assert response.status_code == 200, response.content[:300]
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(response.content.decode())
        for s in family.samples
    }


def value(found: dict, name: str, **labels) -> float:
    return found.get((name, frozenset(labels.items())), 0.0)


def scrape(**extra):
    return Client().get(METRICS, **extra)


@pytest.mark.parametrize("address", ["127.0.0.1", "10.20.3.4"])
def test_allowed_networks_read_the_metrics(db, address):
    response = scrape(REMOTE_ADDR=address)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=")
    assert "http_request_duration_seconds" in response.content.decode()


def test_ipv6_loopback_is_allowed(db):
    assert scrape(REMOTE_ADDR="::1").status_code == 200


@pytest.mark.parametrize("address", ["203.0.113.5", "10.21.0.1", "2001:db8::1"])
def test_other_addresses_get_the_ordinary_404(db, address):
    response = scrape(REMOTE_ADDR=address)
    assert response.status_code == 404
    assert b"http_request" not in response.content
    # exactly what any unknown path answers: the endpoint is not revealed
    unknown = Client().get("/no-such-page", REMOTE_ADDR=address)
    assert (response.status_code, response.content) == (unknown.status_code, unknown.content)


def test_the_token_opens_it_from_anywhere(db):
    assert scrape(REMOTE_ADDR="203.0.113.5", HTTP_AUTHORIZATION=f"Bearer {TOKEN}").status_code == 200


@pytest.mark.parametrize("header", [f"Bearer {TOKEN}x", "Bearer ", f"Basic {TOKEN}", TOKEN])
def test_a_wrong_token_is_a_404(db, header):
    assert scrape(REMOTE_ADDR="203.0.113.5", HTTP_AUTHORIZATION=header).status_code == 404


def test_no_token_configured_accepts_none(db, settings):
    settings.METRICS_TOKEN = ""
    assert scrape(REMOTE_ADDR="203.0.113.5", HTTP_AUTHORIZATION="Bearer ").status_code == 404


def test_behind_a_trusted_proxy_the_forwarded_address_decides(db, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    # the proxy itself is on loopback; the client it forwards is not in an allowed network
    assert scrape(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.5").status_code == 404
    assert scrape(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="10.20.0.9").status_code == 200


def test_other_methods_are_404(db):
    assert Client().post(METRICS, REMOTE_ADDR="127.0.0.1").status_code == 404


def test_request_latency_is_labelled_by_route_pattern_not_path(api, organization, club):
    before = samples(scrape())
    for _ in range(3):
        assert api.get(f"/v1/platform/clubs/{club.slug}").status_code == 200
    assert api.get("/v1/platform/clubs/no-such-club").status_code == 404
    after = samples(scrape())
    route = "/v1/platform/clubs/<slug>"
    count = "http_request_duration_seconds_count"
    assert (
        value(after, count, route=route, method="GET", status="2xx")
        - value(before, count, route=route, method="GET", status="2xx")
        == 3
    )
    assert (
        value(after, count, route=route, method="GET", status="4xx")
        - value(before, count, route=route, method="GET", status="4xx")
        == 1
    )
    routes = {dict(labels).get("route", "") for _, labels in after}
    assert not [r for r in routes if "centre-court" in r or "no-such" in r]


@pytest.mark.parametrize(
    ("paths", "route"),
    [
        (("/whatever", "/nothing/else", "/wp-login.php"), "<unmatched>"),
        (("/v1/platform/nothing-here", "/v1/platform/a/b/c", "/v1/x"), "/v1(/.*)?"),  # the /v1 catch-all 404
    ],
)
def test_unknown_paths_share_one_label(db, paths, route):
    before = samples(scrape())
    for path in paths:
        assert Client().get(path).status_code == 404
    after = samples(scrape())
    count = "http_request_duration_seconds_count"
    moved = value(after, count, route=route, method="GET", status="4xx") - value(
        before, count, route=route, method="GET", status="4xx"
    )
    assert moved == 3


def test_a_429_is_counted_by_bucket(api, settings):
    settings.RATE_LIMIT_MULTIPLIER = 0.02  # general bucket: 2 a minute
    before = samples(scrape())
    statuses = [api.get("/v1/platform/me").status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    after = samples(scrape())
    refused = "ratelimit_refusals_total"
    assert value(after, refused, bucket="general") - value(before, refused, bucket="general") == 1
    count = "http_request_duration_seconds_count"
    labels = {"route": "/v1/platform/me", "method": "GET", "status": "4xx"}
    assert value(after, count, **labels) - value(before, count, **labels) == 1


def test_a_public_address_limit_refusal_is_counted(db, settings):
    settings.RATE_LIMIT_MULTIPLIER = 0.01  # marketplace group: 1 a minute per address
    before = samples(scrape())
    client = APIClient(REMOTE_ADDR="198.51.100.77")
    statuses = [client.get("/v1/public/search/clubs").status_code for _ in range(2)]
    assert statuses[-1] == 429
    after = samples(scrape())
    assert (
        value(after, "ratelimit_refusals_total", bucket="marketplace")
        - value(before, "ratelimit_refusals_total", bucket="marketplace")
        == 1
    )


def test_the_metrics_endpoint_is_not_in_the_openapi_document(db):
    document = APIClient().get("/v1/openapi.json").json()
    assert not [p for p in document["paths"] if "metrics" in p]


def test_queue_depth_is_read_from_the_broker_at_scrape_time(db, settings):
    import redis

    url = settings.REDIS_URL
    if not url:
        pytest.skip("needs Redis (REDIS_URL)")
    settings.CELERY_BROKER_URL = url
    client = redis.Redis.from_url(url)
    queues = collectors.configured_queues()
    assert "celery" in queues and settings.WEBHOOK_QUEUE in queues
    client.delete(settings.WEBHOOK_QUEUE)
    client.rpush(settings.WEBHOOK_QUEUE, b"m1", b"m2")
    client.rpush(settings.WEBHOOK_QUEUE + "\x06\x166", b"m3")
    try:
        found = samples(scrape())
    finally:
        client.delete(settings.WEBHOOK_QUEUE, settings.WEBHOOK_QUEUE + "\x06\x166")
    assert value(found, "celery_queue_length", queue=settings.WEBHOOK_QUEUE) == 3
    assert value(found, "celery_broker_up") == 1


def test_a_down_broker_is_reported_not_raised(db, settings):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    found = samples(scrape())
    assert value(found, "celery_broker_up") == 0
