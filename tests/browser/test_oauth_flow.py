"""The whole OAuth flow as a third-party client runs it, against the live server: authlib for the client's side
(discovery, registration, PKCE, token exchange, refresh), Debian's chromium through Playwright for the person
signing in and consenting, axe-core on the sign-in and consent pages. Then the refusals the contract names."""

import os
import secrets
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest
import requests
from django.contrib.auth import get_user_model

from apps.api.authentication import resolve_credential
from apps.api.exceptions import Unauthenticated
from apps.oauth.models import Grant
from apps.organizations.models import Organization, StaffMembership

from .test_admin_keys import CHROMIUM, CHROMIUM_ARGS, SCREENSHOTS
from .test_website import serious_violations

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"chromium is not installed at {CHROMIUM}"),
]

oauth2_client = pytest.importorskip("authlib.integrations.requests_client")
OAuthError = oauth2_client.OAuthError

OWNER, MANAGER, PASSWORD = "owner@padel-palace.example.com", "manager@padel-palace.example.com", "correct-horse-battery"


class CallbackServer:
    """The client application's loopback redirect URI (RFC 8252), as a native app or CLI would listen on."""

    def __init__(self):
        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):  # noqa: N802
                body = b"<!DOCTYPE html><html lang='en'><title>Back at the client</title><h1>Done</h1></html>"
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/callback"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


CALLBACK = ""  # set by the `live` fixture to the callback server's URL


@pytest.fixture
def live(live_server, settings, transactional_db, organization, monkeypatch):
    callback = CallbackServer()
    monkeypatch.setitem(globals(), "CALLBACK", callback.url)
    settings.BASE_URL = live_server.url
    settings.AUTH_URL = live_server.url
    settings.MCP_URL = f"{live_server.url}/mcp"
    owner = get_user_model().objects.create_user(username=OWNER, email=OWNER, password=PASSWORD)
    StaffMembership.objects.create(user=owner, organization=organization, role="admin")
    manager = get_user_model().objects.create_user(username=MANAGER, email=MANAGER, password=PASSWORD)
    StaffMembership.objects.create(user=manager, organization=organization, role="manager")
    yield live_server.url
    callback.close()


@pytest.fixture
def browser(monkeypatch):
    sync_api = pytest.importorskip("playwright.sync_api")
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


class Person:
    """One browser profile signing in and answering consent pages; the client's callback is intercepted."""

    def __init__(self, browser, javascript=True):
        # The pages need no script: the refusals run with JavaScript off. (axe-core needs it on to run at all.)
        self.context = browser.new_context(viewport={"width": 1100, "height": 900}, java_script_enabled=javascript)
        self.context.set_default_timeout(15_000)
        self.page = self.context.new_page()

    def open(self, url):
        self.page.goto(url)

    def sign_in(self, email):
        self.page.get_by_label("E-mail or username").fill(email)
        self.page.get_by_label("Password").fill(PASSWORD)
        self.page.get_by_role("button", name="Sign in").click()

    def callback(self) -> str:
        self.page.wait_for_url(f"{CALLBACK}**")
        return self.page.url

    def close(self):
        self.context.close()


def discover(base):
    resource = requests.get(f"{base}/.well-known/oauth-protected-resource/mcp/admin", timeout=10).json()
    issuer = resource["authorization_servers"][0]
    server = requests.get(f"{issuer}/.well-known/oauth-authorization-server", timeout=10).json()
    assert server["issuer"] == issuer
    assert server["code_challenge_methods_supported"] == ["S256"]
    assert server["authorization_response_iss_parameter_supported"] is True
    return resource, server


def register(server, **metadata):
    body = {"client_name": "Courtside Agent", "redirect_uris": [CALLBACK], "application_type": "native", **metadata}
    response = requests.post(server["registration_endpoint"], json=body, timeout=10)
    assert response.status_code == 201, response.text
    return response.json()


def session(registration, scope="classes:read bookings:write"):
    return oauth2_client.OAuth2Session(
        registration["client_id"],
        redirect_uri=CALLBACK,
        scope=scope,
        code_challenge_method="S256",
        token_endpoint_auth_method="none",
    )


def authorization_url(client, server, resource, **extra):
    verifier = secrets.token_urlsafe(48)
    url, state = client.create_authorization_url(
        server["authorization_endpoint"], code_verifier=verifier, resource=resource, **extra
    )
    return url, state, verifier


MCP_VERSION = "2026-07-28"


def call_mcp_tool(base, token, name="me_get", arguments=None):
    meta = {"io.modelcontextprotocol/protocolVersion": MCP_VERSION, "io.modelcontextprotocol/clientCapabilities": {}}
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments or {}, "_meta": meta},
    }
    headers = {
        "Authorization": f"Bearer {token}",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": MCP_VERSION,
        "Mcp-Method": "tools/call",
        "Mcp-Name": name,
    }
    return requests.post(f"{base}/mcp/admin", json=body, headers=headers, timeout=10)


def call_me(base, token):
    return requests.get(f"{base}/v1/platform/me", headers={"Authorization": f"Bearer {token}"}, timeout=10)


def test_a_third_party_client_connects(live, browser, organization):
    base = live
    resource, server = discover(base)
    registration = register(server)
    client = session(registration)
    url, state, verifier = authorization_url(client, server, resource["resource"])

    person = Person(browser)
    person.open(url)
    assert person.page.get_by_role("heading", name="Sign in to connect Courtside Agent").is_visible()
    assert serious_violations(person.page) == []
    person.page.screenshot(path=str(SCREENSHOTS / "oauth-sign-in.png"), full_page=True)

    person.sign_in(OWNER)
    person.page.get_by_role("heading", name="Allow Courtside Agent to access your organization?").wait_for()
    page_text = person.page.inner_text("main")
    assert "View classes, class types, schedules and progression tracks" in page_text
    assert "book people into classes" in page_text
    assert serious_violations(person.page) == []
    person.page.screenshot(path=str(SCREENSHOTS / "oauth-consent.png"), full_page=True)

    person.page.get_by_label(organization.name).check()
    person.page.get_by_role("button", name="Allow access").click()
    callback = person.callback()

    # The client checks the issuer of the answer (RFC 9207), then exchanges the code with its PKCE verifier.
    answer = {k: v[0] for k, v in parse_qs(urlsplit(callback).query).items()}
    assert answer["iss"] == server["issuer"] and answer["state"] == state
    token = client.fetch_token(
        server["token_endpoint"], authorization_response=callback, code_verifier=verifier, state=state
    )
    assert token["token_type"].lower() == "bearer" and token["expires_in"] == 3600
    assert token["scope"] == "classes:read bookings:write"

    me = call_me(base, token["access_token"])
    assert me.status_code == 200, me.text
    assert me.json()["credential"] == {"type": "oauth", "name": "Courtside Agent"}
    assert me.json()["organization"]["id"] == organization.id
    assert me.json()["scopes"] == ["classes:read", "bookings:write"]
    assert "X-RateLimit-Limit" in me.headers
    tool = call_mcp_tool(base, token["access_token"])
    assert tool.status_code == 200, tool.text
    assert tool.json()["result"]["structuredContent"]["credential"] == {"type": "oauth", "name": "Courtside Agent"}
    refused = requests.get(
        f"{base}/v1/platform/contacts", headers={"Authorization": f"Bearer {token['access_token']}"}, timeout=10
    )
    assert refused.status_code == 403 and refused.json()["requiredScope"] == "contacts:read"

    # A code is single use: the second exchange fails (and revokes what the first one issued).
    reused = requests.post(
        server["token_endpoint"],
        data={
            "grant_type": "authorization_code",
            "code": answer["code"],
            "redirect_uri": CALLBACK,
            "client_id": registration["client_id"],
            "code_verifier": verifier,
        },
        timeout=10,
    )
    assert (reused.status_code, reused.json()["error"]) == (400, "invalid_grant")
    assert call_me(base, token["access_token"]).status_code == 401

    # A fresh consent (the browser is signed in now), then refresh rotation and reuse detection.
    url, state, verifier = authorization_url(client, server, resource["resource"])
    person.open(url)
    person.page.get_by_label(organization.name).check()
    person.page.get_by_role("button", name="Allow access").click()
    token = client.fetch_token(
        server["token_endpoint"], authorization_response=person.callback(), code_verifier=verifier, state=state
    )
    first_refresh = token["refresh_token"]
    rotated = client.refresh_token(server["token_endpoint"], refresh_token=first_refresh)
    assert rotated["refresh_token"] != first_refresh
    assert call_me(base, rotated["access_token"]).status_code == 200
    with pytest.raises(OAuthError) as reuse:
        client.refresh_token(server["token_endpoint"], refresh_token=first_refresh)
    assert reuse.value.error == "invalid_grant"
    assert call_me(base, rotated["access_token"]).status_code == 401  # the whole grant is revoked
    with pytest.raises(OAuthError):
        client.refresh_token(server["token_endpoint"], refresh_token=rotated["refresh_token"])
    assert Grant.objects.filter(revoked_reason="refresh_token_reused").count() == 1

    # The error page (an unregistered redirect URI) is accessible too.
    stranger = oauth2_client.OAuth2Session(registration["client_id"], redirect_uri="https://evil.example/cb")
    person.open(authorization_url(stranger, server, resource["resource"])[0])
    assert person.page.get_by_role("heading", name="This connection request cannot be completed").is_visible()
    assert serious_violations(person.page) == []
    person.close()


def test_the_refusals(live, browser, organization):
    base = live
    resource, server = discover(base)
    registration = register(server)
    client = session(registration)
    owner = Person(browser, javascript=False)

    # `plain` PKCE: refused before any sign-in, back at the client with invalid_request.
    plain = client.create_authorization_url(
        server["authorization_endpoint"], code_challenge="x" * 43, code_challenge_method="plain", state="s1"
    )[0]
    owner.open(plain)
    assert "error=invalid_request" in owner.callback()

    # An unregistered redirect URI: an error page here, never a redirect there.
    stranger = oauth2_client.OAuth2Session(registration["client_id"], redirect_uri="https://evil.example/cb")
    owner.open(authorization_url(stranger, server, resource["resource"])[0])
    assert owner.page.get_by_role("heading", name="This connection request cannot be completed").is_visible()

    # A wrong PKCE verifier.
    url, state, verifier = authorization_url(client, server, resource["resource"])
    owner.open(url)
    owner.sign_in(OWNER)
    owner.page.get_by_role("button", name="Allow access").click()  # the only organization is preselected
    callback = owner.callback()
    with pytest.raises(OAuthError) as wrong:
        client.fetch_token(
            server["token_endpoint"], authorization_response=callback, code_verifier=verifier + "x", state=state
        )
    assert wrong.value.error == "invalid_grant"

    # A free organization: access_denied.
    free = Organization.objects.create(name="Free Fitness", slug="free-fitness", plan="free")
    StaffMembership.objects.create(user=get_user_model().objects.get(username=OWNER), organization=free, role="admin")
    owner.open(authorization_url(client, server, resource["resource"])[0])
    owner.page.get_by_label("Free Fitness").check()
    owner.page.get_by_role("button", name="Allow access").click()
    assert "error=access_denied" in owner.callback()

    # A resource this server does not serve: invalid_target.
    owner.open(authorization_url(client, server, "https://elsewhere.example/api")[0])
    assert "error=invalid_target" in owner.callback()

    # A token for the Platform API only is refused at the MCP server.
    url, state, verifier = authorization_url(client, server, f"{base}/v1/platform")
    owner.open(url)
    owner.page.get_by_label(organization.name).check()
    owner.page.get_by_role("button", name="Allow access").click()
    token = client.fetch_token(
        server["token_endpoint"], authorization_response=owner.callback(), code_verifier=verifier, state=state
    )
    assert call_me(base, token["access_token"]).status_code == 200
    with pytest.raises(Unauthenticated):
        resolve_credential(token["access_token"], resource["resource"])
    at_mcp = call_mcp_tool(base, token["access_token"])
    assert at_mcp.status_code == 401
    assert 'resource_metadata="' in at_mcp.headers["WWW-Authenticate"]
    owner.close()

    # A manager (no settings.manage.organization): access_denied after signing in.
    manager = Person(browser, javascript=False)
    manager.open(authorization_url(client, server, resource["resource"])[0])
    manager.sign_in(MANAGER)
    assert "error=access_denied" in manager.callback()
    manager.close()
