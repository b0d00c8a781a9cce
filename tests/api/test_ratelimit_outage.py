"""A rate-limit cache outage fails open, visibly: a WARNING and a counter a health check can read."""

import logging

import pytest

from apps.api import ratelimit
from tests.server_env import free_port

ME = "/v1/platform/me"


@pytest.fixture
def redis_down(settings):
    """The cache pointed at a port nothing listens on."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{free_port()}/0",
        }
    }


def test_requests_succeed_with_a_warning_and_a_counter_when_redis_is_down(api, redis_down, caplog):
    before = ratelimit.fail_open_count()
    with caplog.at_level(logging.WARNING, logger="apps.api"):
        response = api.get(ME)
    assert response.status_code == 200
    assert response["X-RateLimit-Remaining"] == "100"
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING and "Rate-limit counting failed" in r.message]
    assert warnings
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert ratelimit.fail_open_count() > before


def test_failed_authentication_also_fails_open(db, redis_down):
    from rest_framework.test import APIClient

    before = ratelimit.fail_open_count()
    assert APIClient().get(ME).status_code == 401
    assert ratelimit.fail_open_count() > before


def test_the_counter_stays_still_while_the_cache_works(api):
    before = ratelimit.fail_open_count()
    assert api.get(ME).status_code == 200
    assert ratelimit.fail_open_count() == before
