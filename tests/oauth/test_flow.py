"""The authorization code flow end to end through Django's test client: sign-in, consent, code, PKCE exchange,
the token as a credential, refresh rotation and reuse detection, and every refusal the contract names."""

import json

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from apps.oauth.models import AccessToken, AuthorizationCode, Client, Grant, RefreshToken
from apps.oauth.resources import mcp_resource, platform_resource
from apps.organizations.models import StaffMembership

from .conftest import PASSWORD, REDIRECT_URI, pkce_pair, query_of

pytestmark = pytest.mark.django_db


def me(token):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client.get("/v1/platform/me")


def test_the_whole_flow(flow, owner, organization, settings):
    f = flow()
    url = f.authorize_url()

    # Anonymous: the sign-in page, naming the client.
    page = f.browser.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Sign in to connect Agent Smith" in html
    assert "script" not in html.lower()
    assert "default-src 'none'" in page["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in page["Content-Security-Policy"]
    assert page["X-Frame-Options"] == "DENY"

    f.sign_in(owner, url)
    consent = f.browser.get(url)
    html = consent.content.decode()
    assert "Allow Agent Smith to access your organization?" in html
    assert "View classes, class types, schedules and progression tracks" in html
    assert "book people into classes" in html
    assert organization.name in html
    assert "127.0.0.1:8765" in html

    answer = f.consent(organization, url)
    assert answer.status_code == 302
    params = query_of(answer["Location"])
    assert "code" in params, params
    assert answer["Location"].startswith(REDIRECT_URI + "?")
    assert params["state"] == f.state
    assert params["iss"] == settings.BASE_URL
    code_row = AuthorizationCode.objects.get()
    assert code_row.code != params["code"] and len(code_row.code) == 64  # stored as its SHA-256 only
    assert code_row.organization == organization
    assert code_row.resource == [mcp_resource()]

    tokens = f.exchange(params["code"])
    assert tokens.status_code == 200, tokens.content
    body = tokens.json()
    assert body["token_type"] == "Bearer"
    assert body["expires_in"] == 3600
    assert body["scope"] == "classes:read bookings:write"
    assert body["access_token"].startswith("gpo_") and body["refresh_token"].startswith("gpr_")
    assert tokens["Cache-Control"] == "no-store"

    described = me(body["access_token"])
    assert described.status_code == 200
    assert described.json()["credential"] == {"type": "oauth", "name": "Agent Smith"}
    assert described.json()["scopes"] == ["classes:read", "bookings:write"]
    assert described.json()["organization"]["id"] == organization.id

    grant = Grant.objects.get()
    assert (grant.organization, grant.user, grant.client.name) == (organization, owner, "Agent Smith")
    # Nothing usable is stored: only checksums.
    assert AccessToken.objects.get().token == "" and RefreshToken.objects.get().token == ""

    # Refresh: a new pair; the old refresh and access tokens stop working.
    refreshed = f.refresh(body["refresh_token"])
    assert refreshed.status_code == 200, refreshed.content
    new = refreshed.json()
    assert new["refresh_token"] != body["refresh_token"] and new["access_token"] != body["access_token"]
    assert me(body["access_token"]).status_code == 401
    assert me(new["access_token"]).status_code == 200
    assert Grant.objects.count() == 1  # the same grant: rate limits and idempotency keys carry over

    # Reusing the old refresh token: invalid_grant, and the whole grant is revoked.
    reused = f.refresh(body["refresh_token"])
    assert (reused.status_code, reused.json()["error"]) == (400, "invalid_grant")
    assert me(new["access_token"]).status_code == 401
    assert f.refresh(new["refresh_token"]).json()["error"] == "invalid_grant"
    grant.refresh_from_db()
    assert grant.revoked_reason == "refresh_token_reused"


def test_a_confidential_client_authenticates(flow, owner, organization):
    f = flow(token_endpoint_auth_method="client_secret_post")
    assert f.secret
    code = f.code(owner, organization)
    secret, f.secret = f.secret, "nope"
    wrong = f.exchange(code)
    assert (wrong.status_code, wrong.json()["error"]) == (401, "invalid_client")
    f.secret = None
    anonymous = f.exchange(code)
    assert (anonymous.status_code, anonymous.json()["error"]) == (401, "invalid_client")
    f.secret = secret
    assert f.exchange(code).status_code == 200


def test_json_token_requests_are_accepted(flow, owner, organization):
    f = flow()
    code = f.code(owner, organization)
    body = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": f.redirect_uri,
        "code_verifier": f.verifier,
        "client_id": f.client_id,
    }
    response = f.api.post("/v1/mcp/oauth/token", json.dumps(body), content_type="application/json")
    assert response.status_code == 200, response.content


def test_plain_pkce_and_a_missing_challenge_are_refused(flow, owner):
    f = flow()
    f.sign_in(owner)
    plain = f.browser.get(f.authorize_url(code_challenge_method="plain", code_challenge="x" * 43))
    assert plain.status_code == 302
    assert query_of(plain["Location"])["error"] == "invalid_request"
    assert query_of(plain["Location"])["state"] == f.state
    missing = f.browser.get(f.authorize_url(code_challenge=None, code_challenge_method=None))
    assert query_of(missing["Location"])["error"] == "invalid_request"
    assert AuthorizationCode.objects.count() == 0


def test_a_wrong_verifier_and_a_reused_code_are_refused(flow, owner, organization):
    f = flow()
    code = f.code(owner, organization)
    wrong = f.exchange(code, code_verifier=pkce_pair()[0])
    assert (wrong.status_code, wrong.json()["error"]) == (400, "invalid_grant")
    assert Grant.objects.count() == 0
    first = f.exchange(code)
    assert first.status_code == 200
    again = f.exchange(code)
    assert (again.status_code, again.json()["error"]) == (400, "invalid_grant")
    # RFC 6749 §4.1.2: the tokens issued for a reused code are revoked.
    assert me(first.json()["access_token"]).status_code == 401
    assert Grant.objects.get().revoked_reason == "authorization_code_reused"


def test_an_unregistered_redirect_uri_is_an_error_page_not_a_redirect(flow, owner):
    f = flow()
    f.sign_in(owner)
    response = f.browser.get(f.authorize_url(redirect_uri="https://evil.example/callback"))
    assert response.status_code == 400
    assert "cannot be completed" in response.content.decode()
    assert not response.has_header("Location")


def test_an_unknown_client_is_an_error_page(flow):
    f = flow()
    f.client_id = "unknown-client"
    response = f.browser.get(f.authorize_url())
    assert response.status_code == 400


def test_a_manager_without_settings_permission_is_refused(flow, organization):
    manager = get_user_model().objects.create_user(username="manager@example.com", password=PASSWORD)
    StaffMembership.objects.create(
        user=manager, organization=organization, role="manager", full_settings_management=True
    )
    f = flow()
    f.sign_in(manager)
    response = f.browser.get(f.authorize_url())
    assert response.status_code == 302
    params = query_of(response["Location"])
    assert (params["error"], params["state"]) == ("access_denied", f.state)
    # Even a forged consent for that organization is refused.
    forged = f.consent(organization)
    assert query_of(forged["Location"])["error"] == "access_denied"
    assert AuthorizationCode.objects.count() == 0


def test_a_free_organization_is_refused(flow, owner, free_organization):
    StaffMembership.objects.create(user=owner, organization=free_organization, role="admin")
    f = flow()
    f.sign_in(owner)
    page = f.browser.get(f.authorize_url()).content.decode()
    assert "its plan does not include API access" in page
    response = f.consent(free_organization)
    assert query_of(response["Location"])["error"] == "access_denied"
    assert AuthorizationCode.objects.count() == 0


def test_another_organization_cannot_be_picked(flow, owner, other_organization):
    f = flow()
    f.sign_in(owner)
    response = f.consent(other_organization)
    assert response.status_code == 400
    assert "Choose an organization" in response.content.decode()
    assert AuthorizationCode.objects.count() == 0


def test_denying_sends_access_denied(flow, owner, organization):
    f = flow()
    f.sign_in(owner)
    response = f.consent(organization, decision="deny")
    assert query_of(response["Location"])["error"] == "access_denied"


def test_resources(flow, owner, organization):
    f = flow()
    f.sign_in(owner)
    unknown = f.browser.get(f.authorize_url(resource="https://elsewhere.example/api"))
    assert query_of(unknown["Location"])["error"] == "invalid_target"
    code = f.code(owner, organization, resource=platform_resource())
    token = f.exchange(code).json()["access_token"]
    assert me(token).status_code == 200
    from apps.api.authentication import resolve_credential
    from apps.api.exceptions import Unauthenticated

    with pytest.raises(Unauthenticated):
        resolve_credential(token, mcp_resource())


def test_wrong_credentials_show_the_sign_in_page_again(flow, owner):
    f = flow()
    url = f.authorize_url()
    response = f.browser.post(url, {"step": "sign_in", "username": owner.username, "password": "wrong"})
    assert response.status_code == 400
    assert "The e-mail or password is not right." in response.content.decode()


def test_the_pages_speak_spanish(flow, owner):
    f = flow()
    page = f.browser.get(f.authorize_url(), HTTP_ACCEPT_LANGUAGE="es-ES,es;q=0.9,en;q=0.5")
    assert '<html lang="es">' in page.content.decode()
    assert "Inicia sesión para conectar Agent Smith" in page.content.decode()
    f.sign_in(owner)
    consent = f.browser.get(f.authorize_url(ui_locales="es")).content.decode()
    assert "Ver clases, tipos de clase y horarios" in consent


def test_native_clients_may_use_custom_schemes(register, owner, organization):
    registered = register(application_type="native", redirect_uris=["com.example.agent:/oauth/callback"])
    client = Client.objects.get(client_id=registered["client_id"])
    assert client.application_type == "native"
    from .conftest import Flow

    f = Flow(registered["client_id"], redirect_uri="com.example.agent:/oauth/callback")
    f.sign_in(owner)
    response = f.consent(organization)
    assert response.status_code == 302
    assert response["Location"].startswith("com.example.agent:/oauth/callback?code=")
