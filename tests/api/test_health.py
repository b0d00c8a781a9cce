"""`GET /healthz` (liveness) and `GET /readyz` (readiness: database, Redis, migrations), without a credential."""

import pytest
from django.db import OperationalError
from django.test import Client

from apps.api import health, ratelimit

from .test_ratelimit_outage import redis_down  # noqa: F401 - fixture

ME = "/v1/platform/me"


class BrokenConnection:
    def cursor(self):
        raise OperationalError("connection refused")


def test_liveness_answers_200_without_a_credential_or_the_database(db, monkeypatch):
    monkeypatch.setattr(health, "connection", BrokenConnection())
    response = Client().get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert "no-cache" in response["Cache-Control"]
    assert response.json() == {"status": "ok", "rateLimitFailOpen": ratelimit.fail_open_count()}


def test_a_ready_process_answers_200_with_every_check(db):
    response = Client().get("/readyz")
    assert response.status_code == 200
    assert "no-cache" in response["Cache-Control"]
    assert response.json() == {"status": "ok", "checks": {"database": "ok", "redis": "ok", "migrations": "ok"}}


@pytest.mark.usefixtures("redis_down")
def test_a_redis_outage_is_not_ready_while_requests_are_served_and_counted(api):
    before = Client().get("/healthz").json()["rateLimitFailOpen"]
    ready = Client().get("/readyz")
    assert ready.status_code == 503
    assert ready.json() == {"status": "unavailable", "checks": {"database": "ok", "redis": "error", "migrations": "ok"}}
    assert api.get(ME).status_code == 200  # served unlimited (fail open)
    assert Client().get("/healthz").json()["rateLimitFailOpen"] > before


def test_an_unreachable_database_is_not_ready(db, monkeypatch):
    monkeypatch.setattr(health, "connection", BrokenConnection())
    response = Client().get("/readyz")
    assert response.status_code == 503
    assert response.json()["status"] == "unavailable"
    assert response.json()["checks"]["database"] == "error"
    assert response.json()["checks"]["migrations"] == "error"


def test_unapplied_migrations_are_not_ready(db, monkeypatch):
    class PendingExecutor:
        def __init__(self, connection):
            self.loader = type("Loader", (), {"graph": type("Graph", (), {"leaf_nodes": lambda self: []})()})()

        def migration_plan(self, targets):
            return [("billing", "0099_pending")]

    monkeypatch.setattr(health, "_migrated", False)
    monkeypatch.setattr(health, "MigrationExecutor", PendingExecutor)
    response = Client().get("/readyz")
    assert response.status_code == 503
    assert response.json()["checks"] == {"database": "ok", "redis": "ok", "migrations": "error"}


def test_only_safe_methods(db):
    for path in ("/healthz", "/readyz"):
        assert Client().post(path).status_code == 405
        assert Client().head(path).status_code == 200
