"""The official SDK's own OAuth client provider (`mcp` 2.x) against a live gunicorn, unmodified: it meets the 401,
follows `resource_metadata` to the protected-resource metadata, reads the authorization server's metadata,
registers itself dynamically, sends the user to the authorization endpoint (a person signing in and consenting,
played here over plain HTTP with cookies and the CSRF token, as a browser without JavaScript would), exchanges the
code with its PKCE verifier, and then lists and calls tools with the token."""

import re
from urllib.parse import parse_qsl, urljoin, urlsplit

import anyio
import httpx2
import pytest
from django.contrib.auth import get_user_model
from mcp import Client
from mcp.client.auth import OAuthClientProvider, TokenStorage
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientMetadata

from apps.contacts.models import Contact
from apps.oauth.models import Grant
from apps.organizations.models import StaffMembership

pytestmark = pytest.mark.usefixtures("server_keys")

PASSWORD = "correct-horse-battery-staple"
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class MemoryStorage(TokenStorage):
    def __init__(self):
        self.tokens = None
        self.client_info = None

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens):
        self.tokens = tokens

    async def get_client_info(self):
        return self.client_info

    async def set_client_info(self, client_info):
        self.client_info = client_info


class Person:
    """Signs in and consents on the server's pages, over HTTP, the way a browser posts their forms."""

    def __init__(self, username, organization_id):
        self.username = username
        self.organization_id = organization_id
        self.redirected_to = None
        self.pages = []

    async def post_form(self, browser, url, fields):
        page = await browser.get(url)
        assert page.status_code == 200, page.text[:500]
        self.pages.append(page.text)
        token = CSRF.search(page.text)
        assert token, "the form carries a CSRF token"
        return await browser.post(url, data={"csrfmiddlewaretoken": token.group(1), **fields}, headers={"Referer": url})

    async def authorize(self, authorization_url: str):
        async with httpx2.AsyncClient(follow_redirects=False, timeout=60) as browser:
            signed_in = await self.post_form(
                browser, authorization_url, {"step": "sign_in", "username": self.username, "password": PASSWORD}
            )
            assert signed_in.status_code == 303, signed_in.text[:500]
            consent_url = urljoin(authorization_url, signed_in.headers["Location"])
            decided = await self.post_form(
                browser, consent_url, {"organization": str(self.organization_id), "decision": "allow"}
            )
            assert decided.status_code == 302, decided.text[:500]
            self.redirected_to = decided.headers["Location"]

    async def callback(self) -> AuthorizationCodeResult:
        query = dict(parse_qsl(urlsplit(self.redirected_to).query))
        return AuthorizationCodeResult(code=query["code"], state=query.get("state"), iss=query.get("iss"))


@pytest.fixture
def owner(transactional_db, organization):
    user = get_user_model().objects.create_user(username="owner@example.com", email="owner@example.com",
                                                password=PASSWORD)  # fmt: skip
    StaffMembership.objects.create(user=user, organization=organization, role="admin")
    return user


def test_the_sdk_oauth_provider_discovers_registers_gets_consent_and_calls_tools(
    mcp_server, transactional_db, organization, owner
):
    person = Person(owner.username, organization.id)
    storage = MemoryStorage()
    provider = OAuthClientProvider(
        server_url=mcp_server.mcp_url,
        client_metadata=OAuthClientMetadata(
            client_name="SDK test agent",
            redirect_uris=["http://127.0.0.1:47999/callback"],
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            # (The provider asks for the scopes the protected-resource metadata lists, as the MCP authorization
            # rules say, whatever this field holds.)
            scope="contacts:read contacts:write",
        ),
        storage=storage,
        redirect_handler=person.authorize,
        callback_handler=person.callback,
    )

    async def scenario():
        http_client = httpx2.AsyncClient(auth=provider, timeout=60)
        async with Client(streamable_http_client(mcp_server.mcp_url, http_client=http_client)) as client:
            version = client.protocol_version
            tools = await client.list_tools()
            created = await client.call_tool("contacts_create", {"firstName": "Consented"})
            listed = await client.call_tool("contacts_list", {"q": "consent"})
            return version, tools, created, listed

    version, tools, created, listed = anyio.run(scenario)
    assert version == "2026-07-28"
    assert storage.client_info is not None and storage.client_info.client_id  # registered dynamically
    assert storage.tokens.access_token.startswith("gpo_")
    assert "SDK test agent" in person.pages[-1]  # the consent page named the client
    query = dict(parse_qsl(urlsplit(person.redirected_to).query))
    assert query["iss"] == mcp_server.base
    assert tools.tools
    assert created.is_error is False
    assert Contact.objects.get(organization=organization).first_name == "Consented"
    assert listed.structured_content["data"][0]["id"] == created.structured_content["id"]
    grant = Grant.objects.get()
    assert grant.organization_id == organization.id
