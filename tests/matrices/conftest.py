"""One seeded world for the whole package (tests/matrices/world.py), built once inside a transaction that is rolled
back after the package's last test; each test runs in a savepoint of it, as any pytest-django test does."""

from types import SimpleNamespace

import orjson
import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from rest_framework.test import APIClient

from apps.api import ratelimit
from apps.api.scopes import ALL_SCOPES
from apps.oauth.services import issue_tokens
from apps.organizations.choices import StaffRole
from apps.organizations.models import ApiKey, StaffMembership
from tests.mcp.conftest import modern_headers, rpc_body
from tests.operations import platform_operations

from .world import build_world


@pytest.fixture(scope="package")
def world(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            built = build_world()
            built.credentials = Credentials(built)
            built.credentials.make_all()
        except BaseException as exc:
            outer.__exit__(type(exc), exc, exc.__traceback__)
            raise
    yield built
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        outer.__exit__(None, None, None)


class Credentials:
    """Bearer tokens of org A (API keys and OAuth access tokens), made once per scope set and kept for the
    package (made inside the world's transaction, so no test's rollback removes them)."""

    def __init__(self, world):
        self.world = world
        User = get_user_model()
        self.users = {}
        for organization in (world.a, world.b):
            user = User.objects.create_user(username=f"staff-{organization.slug}", password=None)
            StaffMembership.objects.create(user=user, organization=organization, role=StaffRole.ADMIN)
            self.users[organization.slug] = user
        self.keys: dict = {}
        self.tokens: dict = {}

    def make_all(self):
        """A key and a token of org A for each scope set the matrices send: `*`, none, each operation's scope(s),
        each single scope, and every scope but each one or but an operation's."""
        wanted = {("*",), ()} | {(scope,) for scope in ALL_SCOPES} | {all_but([scope]) for scope in ALL_SCOPES}
        for operation in platform_operations():
            wanted |= {tuple(sorted(operation.scopes)), all_but(operation.scopes)}
        _, self.b_key = ApiKey.issue(organization=self.world.b, name="matrix key", scopes=["*"])
        user = self.users[self.world.a.slug]
        grant, self.tokens[("*",)], _ = issue_tokens(organization=self.world.a, user=user, scopes=["*"])
        for scopes in wanted:
            _, self.keys[scopes] = ApiKey.issue(organization=self.world.a, name="matrix key", scopes=list(scopes))
            if scopes != ("*",):  # one client for all (a new client's secret is hashed slowly on purpose)
                _, self.tokens[scopes], _ = issue_tokens(
                    organization=self.world.a, user=user, scopes=list(scopes), client=grant.client
                )

    def key(self, scopes=("*",)) -> str:
        """An API key of org A with exactly these scopes."""
        return self.keys[tuple(sorted(scopes))]

    def oauth(self, scopes=("*",)) -> str:
        """An OAuth access token of org A granted exactly these scopes."""
        return self.tokens[tuple(sorted(scopes))]


def all_but(scopes) -> tuple[str, ...]:
    """Every registered scope except these."""
    return tuple(sorted(s for s in ALL_SCOPES if s not in scopes))


@pytest.fixture
def credentials(world, db):
    return world.credentials


@pytest.fixture(autouse=True)
def _limits_do_not_bind(monkeypatch):
    """Each test sends many requests with few credentials: the matrices are not about rate limits."""
    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(time=lambda: 1_000_000_020))
    monkeypatch.setattr(ratelimit, "bucket_limit", lambda bucket: 100_000)


def rest(token, method, url, body=None):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    if method in ("POST", "PATCH", "PUT"):
        return getattr(client, method.lower())(url, body if body is not None else {}, format="json")
    return getattr(client, method.lower())(url)


def mcp(token, method, params, name=None) -> dict:
    """One JSON-RPC request to the MCP endpoint (stateless revision): its `result`."""
    headers = {"HTTP_" + k.upper().replace("-", "_"): v for k, v in modern_headers(method, name).items()}
    response = Client().post(
        "/mcp/admin",
        orjson.dumps(rpc_body(method, params)),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
        **headers,
    )
    assert response.status_code == 200, response.content
    body = orjson.loads(response.content)
    assert "result" in body, body
    return body["result"]


def call_tool(token, name, arguments) -> dict:
    """`tools/call`: the tool result."""
    return mcp(token, "tools/call", {"name": name, "arguments": arguments}, name)
