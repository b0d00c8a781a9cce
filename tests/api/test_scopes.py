"""Scope rules through real endpoints: /me and test-only probe views."""

import pytest

from apps.api import scopes as scope_registry
from apps.api.credentials import Credential
from apps.api.scopes import ALL_SCOPES, READ_SCOPES, RESOURCE_CATALOG

from .conftest import PROBES

pytestmark = pytest.mark.urls("tests.api.urls_for_tests")

SHORT_403 = {"error": "Insufficient access scope", "requiredScope": "products:read"}


def test_wildcard_expands_to_every_registered_scope_including_added_ones(client_for):
    body = client_for("*").get("/v1/platform/me").json()
    assert body["scopes"] == ["*"]
    assert body["fullAccess"] is True
    assert body["effectiveScopes"] == list(ALL_SCOPES)
    # `webhooks:*` were added beyond the spec's table and are covered by `*`.
    assert {"webhooks:read", "webhooks:write"} <= set(body["effectiveScopes"])


def test_wildcard_covers_a_scope_added_to_the_registry_later(monkeypatch):
    added = ALL_SCOPES + ("gadgets:read",)
    monkeypatch.setattr(scope_registry, "ALL_SCOPES_SET", frozenset(added))
    credential = Credential.build("api_key", 1, "k", None, ["*"])
    assert credential.has_scope("gadgets:read")
    assert not Credential.build("api_key", 1, "k", None, ["products:read"]).has_scope("gadgets:read")


def test_no_hierarchy_write_does_not_grant_read(client_for, contact):
    writer = client_for("products:write")
    response = writer.get(PROBES)
    assert response.status_code == 403
    assert response.json() == SHORT_403
    assert writer.get(f"{PROBES}/{contact.id}").json() == SHORT_403
    assert writer.post(PROBES, {"firstName": "Zoe"}, format="json").status_code == 201


def test_read_scope_cannot_write(client_for, contact):
    reader = client_for("products:read")
    assert reader.get(PROBES).status_code == 200
    response = reader.post(PROBES, {"firstName": "Zoe"}, format="json")
    assert response.status_code == 403
    assert response.json() == {"error": "Insufficient access scope", "requiredScope": "products:write"}
    response = reader.patch(f"{PROBES}/{contact.id}", {"firstName": "Zoe"}, format="json")
    assert response.json() == {"error": "Insufficient access scope", "requiredScope": "products:write"}
    contact.refresh_from_db()
    assert contact.first_name == "Ana"


def test_other_resources_scope_does_not_help(client_for):
    response = client_for("classes:write classes:read").get(PROBES)
    assert response.status_code == 403
    assert response.json() == SHORT_403


def test_legacy_read_grant_expands_to_read_scopes_only(client_for):
    client = client_for("read")
    body = client.get("/v1/platform/me").json()
    assert body["scopes"] == ["read"]
    assert body["fullAccess"] is False
    assert body["effectiveScopes"] == list(READ_SCOPES)
    assert all(s.endswith(":read") for s in body["effectiveScopes"])
    assert client.get(PROBES).status_code == 200
    response = client.post(PROBES, {"firstName": "Zoe"}, format="json")
    assert response.status_code == 403
    assert response.json()["requiredScope"] == "products:write"


def test_me_reports_granted_and_effective_scopes(client_for):
    body = client_for("products:write classes:read unknown:thing").get("/v1/platform/me").json()
    assert body["scopes"] == ["products:write", "classes:read", "unknown:thing"]
    assert body["effectiveScopes"] == ["classes:read", "products:write"]  # registry order, unknown dropped
    assert body["fullAccess"] is False


def test_me_body_and_resources_identical_for_every_key(client_for, organization):
    full = client_for("*").get("/v1/platform/me").json()
    narrow = client_for("clubs:read").get("/v1/platform/me").json()
    empty = client_for([]).get("/v1/platform/me")
    assert empty.status_code == 200  # /me needs no scope
    assert full["organization"] == {"id": organization.id, "currency": "EUR"}
    assert full["resources"] == narrow["resources"] == empty.json()["resources"] == RESOURCE_CATALOG
    assert {"resource": "website", "actions": ["read", "write", "publish"]} in full["resources"]
    assert set(full) == {"credential", "organization", "scopes", "effectiveScopes", "fullAccess", "resources"}
    assert full["credential"] == {"type": "api_key", "name": "test key"}
    assert empty.json()["effectiveScopes"] == []


def test_full_access_only_for_wildcard(client_for):
    every_scope = client_for(list(ALL_SCOPES)).get("/v1/platform/me").json()
    assert every_scope["fullAccess"] is False
    assert every_scope["scopes"] == list(ALL_SCOPES)
    assert every_scope["effectiveScopes"] == list(ALL_SCOPES)


@pytest.mark.parametrize("scope", ["plans:read", "products:read", "transactions:read"])
def test_any_of_rule_accepts_each_listed_scope(client_for, scope):
    assert client_for(scope).get("/v1/platform/_test/any-of").status_code == 200


def test_any_of_rule_short_body(client_for):
    response = client_for("plans:write products:write transactions:write").get("/v1/platform/_test/any-of")
    assert response.status_code == 403
    assert response.json() == {
        "error": "Insufficient access scope",
        "requiredScope": "plans:read",
        "anyOf": ["plans:read", "products:read", "transactions:read"],
    }


def test_action_without_declared_scope_is_refused(api):
    response = api.post("/v1/platform/_test/undeclared", {}, format="json")
    assert response.status_code == 403
    assert response.json()["code"] == "FORBIDDEN"
    assert api.get("/v1/platform/_test/undeclared").status_code == 200


def test_head_uses_the_get_scope(client_for):
    assert client_for([]).head("/v1/platform/me").status_code == 200
    assert client_for("products:read").head(PROBES).status_code == 200
    response = client_for("products:write").head(PROBES)
    assert response.status_code == 403


def test_resource_catalog_lists_every_registered_scope():
    from_catalog = [f"{r['resource']}:{a}" for r in RESOURCE_CATALOG for a in r["actions"]]
    assert from_catalog == list(ALL_SCOPES)
