"""Runs the uniform endpoint contract (tests/harness.py) over every registered case."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import resolve
from rest_framework.test import APIClient

from apps.api.permissions import AllOf
from apps.api.scopes import ALL_SCOPES
from tests.harness import NO_SCOPE, all_cases, declared_scope, platform_routes

CASES = all_cases()


def call(client, case, url):
    method = getattr(client, case.method.lower())
    if case.method in ("POST", "PATCH"):
        return method(url, case.body or {}, format="json")
    return method(url)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_requires_credential(case, organization):
    response = call(APIClient(), case, case.url(organization))
    assert response.status_code == 401, response.content
    assert response.json()["code"] == "UNAUTHENTICATED"
    assert "X-RateLimit-Limit" not in response


@pytest.mark.parametrize("case", [c for c in CASES if c.scope is not None], ids=lambda c: c.id)
def test_requires_scope(case, organization, client_for):
    client = client_for(case.scopes_without_required())
    response = call(client, case, case.url(organization))
    assert response.status_code == 403, response.content
    body = response.json()
    if isinstance(case.scope, str):
        assert body == {"error": "Insufficient access scope", "requiredScope": case.scope}
    elif isinstance(case.scope, AllOf):
        assert body == {"error": "Insufficient access scope", "requiredScope": case.scope[0]}
        for scope in case.scope:  # holding all but one: the 403 names the one that is missing
            response = call(client_for([s for s in ALL_SCOPES if s != scope]), case, case.url(organization))
            assert response.status_code == 403, response.content
            assert response.json() == {"error": "Insufficient access scope", "requiredScope": scope}
    else:
        assert body["error"] == "Insufficient access scope"
        assert set(body["anyOf"]) == set(case.scope)


@pytest.mark.parametrize("case", [c for c in CASES if "{" in c.path and c.foreign_404], ids=lambda c: c.id)
def test_other_organization_is_not_found(case, organization, other_organization, api):
    response = call(api, case, case.url(other_organization))
    assert response.status_code == 404, response.content
    assert response.json()["code"] == "NOT_FOUND"


@pytest.mark.parametrize("case", [c for c in CASES if c.method in ("POST", "PATCH")], ids=lambda c: c.id)
def test_a_body_that_is_not_json_is_refused(case, organization, api):
    """Every POST and PATCH of the router (`test_every_platform_action_has_a_contract_case`) parses the body it was
    sent, also when its action reads none (`publish`, `duplicate`, `retire`, `rotate`...)."""
    response = api.generic(case.method, case.url(organization), b"{bad", content_type="application/json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "INVALID_JSON"


@pytest.mark.parametrize("case", [c for c in CASES if c.list_rows], ids=lambda c: c.id)
def test_list_query_count_does_not_grow(case, organization, api):
    url = case.url(organization)
    sep = "&" if "?" in url else "?"
    case.list_rows(organization, 1)
    api.get(f"{url}{sep}limit=1")  # warm-up: the key's first use writes last_used_at
    with CaptureQueriesContext(connection) as one:
        first = api.get(f"{url}{sep}limit=200")
    assert first.status_code == 200, first.content
    case.list_rows(organization, 30)
    with CaptureQueriesContext(connection) as many:
        second = api.get(f"{url}{sep}limit=200")
    assert second.status_code == 200
    assert second.json()["total"] >= first.json()["total"] + 30
    assert len(many) == len(one), [q["sql"] for q in many.captured_queries]


def _resource_of(path):
    """The `resource` a path's view declares (None for computed lists), resolved without touching the database."""
    view = resolve(re.sub(r"\{[^}]+\}", "1", path).split("?")[0]).func
    cls = getattr(view, "cls", None)
    return getattr(cls, "list_resource", None) or getattr(cls, "resource", None)


@pytest.mark.parametrize(
    "case", [c for c in CASES if c.list_rows and c.method == "GET" and _resource_of(c.path)], ids=lambda c: c.id
)
def test_list_items_carry_exactly_their_declared_shape(case, organization, api):
    """Every key a resource presents is declared in its shape (the OpenAPI component), and every required key is
    presented: the document cannot drift from the bodies."""
    resource = _resource_of(case.path)
    url = case.url(organization)
    case.list_rows(organization, 2)
    response = api.get(url)
    assert response.status_code == 200, response.content
    items = response.json()["data"]
    assert items
    declared, required = set(resource.shape.__annotations__), set(resource.shape.__required_keys__)
    for item in items:
        assert required <= set(item) <= declared, set(item) ^ declared


def test_every_platform_action_declares_a_scope():
    missing = [
        f"{method} {route}" for callback, method, route in platform_routes() if declared_scope(callback, method) is None
    ]
    assert not missing, f"actions without a required_scopes entry: {missing}"


def test_every_platform_action_has_a_contract_case(organization):
    covered = set()
    for case in CASES:
        match = resolve(case.url(organization).split("?")[0])
        covered.add((match.func, case.method))
    missing = [
        f"{method} {route}" for callback, method, route in platform_routes() if (callback, method) not in covered
    ]
    assert not missing, f"operations without an EndpointCase: {missing}"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case_scope_matches_declaration(case, organization):
    match = resolve(case.url(organization).split("?")[0])
    declared = declared_scope(match.func, case.method)
    expected = NO_SCOPE if case.scope is None else case.scope
    assert declared == expected or (isinstance(declared, set | frozenset) and set(declared) == set(expected))
