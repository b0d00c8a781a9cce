import time
from types import SimpleNamespace

import pytest
from rest_framework.test import APIClient

from apps.api import ratelimit
from apps.organizations.models import ApiKey

PROBES = "/v1/platform/_test/probes"


@pytest.fixture
def issue_key(organization):
    """issue_key(scopes, organization=None, **fields) -> (ApiKey, token)."""

    def issue(scopes=("*",), organization_=None, **fields):
        scopes = scopes.split() if isinstance(scopes, str) else list(scopes)
        return ApiKey.issue(organization=organization_ or organization, name="k", scopes=scopes, **fields)

    return issue


def bearer(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


@pytest.fixture(autouse=True)
def _rate_limit_clock_stands_still(monkeypatch):
    """Fixed windows: a test making many requests must not straddle a window boundary (counts would reset)."""
    frozen = int(time.time())
    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(time=lambda: frozen))
