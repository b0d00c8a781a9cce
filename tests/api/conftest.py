import pytest
from rest_framework.test import APIClient

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
