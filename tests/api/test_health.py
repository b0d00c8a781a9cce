"""`GET /healthz`: database and cache reachability and the rate limiter's fail-open count, without a credential."""

import pytest
from django.db import OperationalError
from django.test import Client

from apps.api import health, ratelimit

from .test_ratelimit_outage import redis_down  # noqa: F401 - fixture

ME = "/v1/platform/me"


def test_healthy_process_answers_200_without_a_credential(db):
    response = Client().get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert "no-cache" in response["Cache-Control"]
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "cache": "ok",
        "rateLimitFailOpen": ratelimit.fail_open_count(),
    }


@pytest.mark.usefixtures("redis_down")
def test_a_cache_outage_shows_and_the_fail_open_count_rises(api):
    before = Client().get("/healthz").json()
    assert before["cache"] == "error" and before["status"] == "ok"
    assert api.get(ME).status_code == 200  # served unlimited
    after = Client().get("/healthz")
    assert after.status_code == 200
    assert after.json()["rateLimitFailOpen"] > before["rateLimitFailOpen"]


def test_an_unreachable_database_is_503(db, monkeypatch):
    class BrokenConnection:
        def cursor(self):
            raise OperationalError("connection refused")

    monkeypatch.setattr(health, "connection", BrokenConnection())
    response = Client().get("/healthz")
    assert response.status_code == 503
    assert response.json()["status"] == "unavailable" and response.json()["database"] == "error"


def test_only_safe_methods(db):
    assert Client().post("/healthz").status_code == 405
    assert Client().head("/healthz").status_code == 200
