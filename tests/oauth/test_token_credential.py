"""An OAuth access token is a Platform API credential like an API key: one organization, its granted scopes, the
same scope permission, locks, rate limits per grant, idempotency per grant, `/me`; revocation and expiry at once."""

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from apps.api.authentication import resolve_credential
from apps.api.exceptions import Unauthenticated
from apps.oauth.models import AccessToken, Grant
from apps.oauth.resources import mcp_resource, platform_resource

pytestmark = pytest.mark.django_db


def bearer(token):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def test_me_describes_the_oauth_credential(make_oauth_token, organization):
    token = make_oauth_token("classes:read bookings:write", client_name="Claude")
    response = bearer(token).get("/v1/platform/me")
    assert response.status_code == 200
    body = response.json()
    assert body["credential"] == {"type": "oauth", "name": "Claude"}
    assert body["organization"]["id"] == organization.id
    assert body["scopes"] == ["classes:read", "bookings:write"]
    assert body["effectiveScopes"] == ["classes:read", "bookings:write"]
    assert body["fullAccess"] is False
    assert response["X-RateLimit-Limit"] == "100"


def test_me_describes_an_api_key_too(make_token):
    response = bearer(make_token("*", name="Front desk")).get("/v1/platform/me")
    assert response.json()["credential"] == {"type": "api_key", "name": "Front desk"}
    assert response.json()["fullAccess"] is True


def test_the_scope_permission_applies(make_oauth_token, club):
    token = make_oauth_token("bookings:read")
    refused = bearer(token).get("/v1/platform/clubs")
    assert refused.status_code == 403
    assert refused.json() == {"error": "Insufficient access scope", "requiredScope": "clubs:read"}
    allowed = bearer(make_oauth_token("clubs:read")).get("/v1/platform/clubs")
    assert allowed.status_code == 200
    assert [c["slug"] for c in allowed.json()["data"]] == [club.slug]


def test_another_organizations_data_is_missing(make_oauth_token, other_organization, club):
    token = make_oauth_token("clubs:read", organization_=other_organization)
    assert bearer(token).get("/v1/platform/clubs").json()["total"] == 0
    assert bearer(token).get(f"/v1/platform/clubs/{club.slug}").status_code == 404


def test_locks_apply(make_oauth_token, organization):
    token = make_oauth_token("*")
    organization.plan = "free"
    organization.save()
    response = bearer(token).get("/v1/platform/me")
    assert (response.status_code, response.json()["code"]) == (403, "PLAN_FEATURE_LOCKED")
    organization.plan, organization.status = "pro", "inactive"
    organization.save()
    response = bearer(token).get("/v1/platform/me")
    assert (response.status_code, response.json()["code"]) == (403, "ORGANIZATION_NOT_ACTIVE")


def test_revoking_the_grant_refuses_the_next_request(make_oauth_token):
    token = make_oauth_token("*")
    client = bearer(token)
    assert client.get("/v1/platform/me").status_code == 200
    Grant.objects.get().revoke("revoked_by_staff")
    response = client.get("/v1/platform/me")
    assert (response.status_code, response.json()["code"]) == (401, "UNAUTHENTICATED")
    assert AccessToken.objects.count() == 0


def test_an_expired_token_is_refused(make_oauth_token):
    token = make_oauth_token("*")
    AccessToken.objects.update(expires=timezone.now() - timedelta(seconds=1))
    assert bearer(token).get("/v1/platform/me").status_code == 401


@pytest.mark.parametrize("token", ["gpo_unknown", "gpo_", "gpo_\x00abc", "gpo_" + "a" * 5000])
def test_unknown_tokens_are_refused(token):
    response = bearer(token).get("/v1/platform/me")
    assert (response.status_code, response.json()["code"]) == (401, "UNAUTHENTICATED")


def test_the_token_is_not_stored_in_clear(make_oauth_token):
    token = make_oauth_token("*")
    stored = AccessToken.objects.get()
    assert stored.token == ""
    assert token not in (stored.token_checksum,)
    assert len(stored.token_checksum) == 64


def test_a_token_is_bound_to_its_resource(make_oauth_token):
    # The default resource (the MCP server) is accepted by the Platform API and by MCP.
    default = make_oauth_token("*")
    assert resolve_credential(default, mcp_resource()).kind == "oauth"
    assert resolve_credential(default).kind == "oauth"
    # A token for the Platform API only is refused by MCP.
    platform_only = make_oauth_token("*", resource=platform_resource())
    assert resolve_credential(platform_only).kind == "oauth"
    with pytest.raises(Unauthenticated):
        resolve_credential(platform_only, mcp_resource())
    # A token for the read-only MCP surface is refused by the full surface and the Platform API.
    readonly = make_oauth_token("*", resource=f"{mcp_resource()}/readonly")
    assert resolve_credential(readonly, f"{mcp_resource()}/readonly").kind == "oauth"
    with pytest.raises(Unauthenticated):
        resolve_credential(readonly, mcp_resource())
    with pytest.raises(Unauthenticated):
        resolve_credential(readonly)


def test_rate_limits_count_per_grant(make_oauth_token, settings):
    settings.RATE_LIMIT_MULTIPLIER = 0.03  # 3 per window
    first, second = make_oauth_token("*"), make_oauth_token("*")
    statuses = [bearer(first).get("/v1/platform/me").status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    assert bearer(second).get("/v1/platform/me").status_code == 200


def test_idempotency_keys_belong_to_the_grant(make_oauth_token):
    first, second = bearer(make_oauth_token("areas:write")), bearer(make_oauth_token("areas:write"))
    body = {"name": "Indoor"}
    created = first.post("/v1/platform/area-types", body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert created.status_code == 201, created.json()
    replay = first.post("/v1/platform/area-types", body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert replay["Idempotent-Replayed"] == "true"
    assert replay.json() == created.json()
    other = second.post("/v1/platform/area-types", body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert other.status_code == 201
    assert other.json()["id"] != created.json()["id"]
