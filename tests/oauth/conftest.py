import base64
import hashlib
import json
import secrets
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.test import Client as BrowserClient

from apps.organizations.models import Organization, StaffMembership

PASSWORD = "correct-horse-battery-staple"
REDIRECT_URI = "http://127.0.0.1:8765/callback"


def pkce_pair():
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    return verifier, challenge


def query_of(location: str) -> dict:
    return {key: values[0] for key, values in parse_qs(urlsplit(location).query).items()}


@pytest.fixture
def owner(db, organization):
    """A dashboard user holding settings.manage.organization in `organization` (its admin)."""
    user = get_user_model().objects.create_user(
        username="owner@example.com", email="owner@example.com", password=PASSWORD
    )
    StaffMembership.objects.create(user=user, organization=organization, role="admin")
    return user


@pytest.fixture
def register(client):
    def register_client(**metadata):
        body = {"redirect_uris": [REDIRECT_URI], "client_name": "Agent Smith", **metadata}
        response = client.post("/v1/mcp/oauth/register", json.dumps(body), content_type="application/json")
        assert response.status_code == 201, response.content
        return response.json()

    return register_client


class Flow:
    """The authorization code flow driven through Django's test client, as a browser and a client app would."""

    def __init__(self, client_id, redirect_uri=REDIRECT_URI, secret=None):
        self.client_id, self.redirect_uri, self.secret = client_id, redirect_uri, secret
        self.browser = BrowserClient()
        self.api = BrowserClient()
        self.verifier, self.challenge = pkce_pair()
        self.state = secrets.token_urlsafe(8)

    def authorize_url(self, **overrides):
        params = {
            "response_type": "code",
            "client_id": self.client_id,
            "redirect_uri": self.redirect_uri,
            "scope": "classes:read bookings:write",
            "state": self.state,
            "code_challenge": self.challenge,
            "code_challenge_method": "S256",
        }
        params.update(overrides)
        params = {k: v for k, v in params.items() if v is not None}
        return "/oauth/authorize?" + urlencode(params, doseq=True)

    def sign_in(self, user, url=None):
        url = url or self.authorize_url()
        response = self.browser.post(url, {"step": "sign_in", "username": user.username, "password": PASSWORD})
        assert response.status_code == 303, response.content
        return url

    def consent(self, organization, url=None, decision="allow"):
        url = url or self.authorize_url()
        data = {"decision": decision}
        if organization is not None:
            data["organization"] = organization.id
        return self.browser.post(url, data)

    def code(self, user, organization, **overrides):
        url = self.authorize_url(**overrides)
        self.sign_in(user, url)
        response = self.consent(organization, url)
        assert response.status_code == 302, response.content
        params = query_of(response["Location"])
        assert "code" in params, params
        return params["code"]

    def token(self, **params):
        body = {"client_id": self.client_id, **params}
        if self.secret:
            body["client_secret"] = self.secret
        return self.api.post("/v1/mcp/oauth/token", urlencode(body), content_type="application/x-www-form-urlencoded")

    def exchange(self, code, **overrides):
        params = {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": self.redirect_uri,
            "code_verifier": self.verifier,
        }
        params.update(overrides)
        return self.token(**params)

    def refresh(self, refresh_token):
        return self.token(grant_type="refresh_token", refresh_token=refresh_token)


@pytest.fixture
def flow(register):
    def make(**metadata):
        registered = register(**metadata)
        return Flow(registered["client_id"], secret=registered.get("client_secret"))

    return make


@pytest.fixture
def free_organization(db):
    return Organization.objects.create(name="Free Fitness", slug="free-fitness", plan="free")
