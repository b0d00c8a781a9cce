"""Lifetimes, client binding, concurrent code exchanges and the cost of authenticating with a token."""

from datetime import timedelta

import pytest
from django.test import Client as HttpClient
from django.utils import timezone
from rest_framework.test import APIClient

from apps.oauth.models import AccessToken, Grant
from tests.concurrency import race

from .conftest import Flow


@pytest.mark.django_db
def test_a_refresh_token_lasts_30_days(flow, owner, organization):
    f = flow()
    tokens = f.exchange(f.code(owner, organization)).json()
    # 29 days after issue it still refreshes; 30 days after, it is dead.
    AccessToken.objects.update(expires=timezone.now() - timedelta(days=29) + timedelta(hours=1))
    refreshed = f.refresh(tokens["refresh_token"])
    assert refreshed.status_code == 200, refreshed.content
    AccessToken.objects.update(expires=timezone.now() - timedelta(days=30) + timedelta(hours=1) - timedelta(seconds=5))
    dead = f.refresh(refreshed.json()["refresh_token"])
    assert (dead.status_code, dead.json()["error"]) == (400, "invalid_grant")


@pytest.mark.django_db
def test_a_refresh_token_works_only_for_its_client(flow, owner, organization):
    mine, other = flow(), flow()
    tokens = mine.exchange(mine.code(owner, organization)).json()
    stolen = other.refresh(tokens["refresh_token"])
    assert (stolen.status_code, stolen.json()["error"]) == (400, "invalid_grant")
    assert mine.refresh(tokens["refresh_token"]).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_exchanges_of_one_code_issue_one_grant(register, owner, organization):
    registered = register()
    f = Flow(registered["client_id"])
    code = f.code(owner, organization)

    def exchange():
        return Flow.exchange(f, code).status_code

    statuses = race([exchange, exchange])
    assert sorted(statuses) == [200, 400]
    assert Grant.objects.count() == 1


@pytest.mark.django_db
def test_authenticating_with_a_token_costs_what_a_key_costs(make_oauth_token, make_token, django_assert_num_queries):
    oauth, key = APIClient(), APIClient()
    oauth.credentials(HTTP_AUTHORIZATION=f"Bearer {make_oauth_token('*')}")
    key.credentials(HTTP_AUTHORIZATION=f"Bearer {make_token('*')}")
    # The first request of each also stamps its last use; the next ones within a minute only look up.
    assert oauth.get("/v1/platform/me").status_code == 200
    assert key.get("/v1/platform/me").status_code == 200
    with django_assert_num_queries(1):
        assert oauth.get("/v1/platform/me").status_code == 200
    with django_assert_num_queries(1):
        assert key.get("/v1/platform/me").status_code == 200


@pytest.mark.django_db
def test_a_revoked_client_token_via_the_revocation_endpoint(flow, owner, organization):
    f = flow()
    tokens = f.exchange(f.code(owner, organization)).json()
    response = HttpClient().post(
        "/v1/mcp/oauth/revoke",
        f"token={tokens['refresh_token']}&client_id={f.client_id}",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 200
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {tokens['access_token']}")
    assert api.get("/v1/platform/me").status_code == 401
    assert Grant.objects.get().revoked_reason == "revoked_by_client"
