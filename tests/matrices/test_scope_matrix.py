"""The scope matrix, generated from the served OpenAPI document and the MCP tool list: for every operation, a
credential holding every scope except the one(s) it needs gets the spec's short 403 body, and one holding exactly
what it needs (and `*`) passes the scope check.

The three ways in (an API key, an OAuth access token, an MCP tool call) meet one permission class
(`apps.api.permissions.ScopePermission` over the request's `Credential`, whose effective scopes both kinds of
credential get from one `Credential.build`; a tool call is dispatched to the operation's view), so each operation is
sent through each way once, not each way with every credential:

- through an API key, the whole row: the short 403 for every scope but the needed ones, a pass with `*` and with
  exactly each needed scope (for all-of scopes, the 403 naming each one that is missing);
- through an OAuth access token: the short 403 for a token granted every scope but the needed ones;
- through its MCP tool: the tool error (the REST 403 body plus `status`) for the key without the needed scopes, and
  a pass for an OAuth token granted exactly the needed scopes (so an OAuth token is refused and let through on every
  operation, and every tool both ways).

The path values name nothing (the scope is checked before the path objects): passing the check is any answer but
the short 403 body.
"""

from urllib.parse import urlencode

import pytest

from apps.api.permissions import NO_SCOPE, AllOf
from apps.mcp.catalogue import catalogue
from tests.mcp.tool_arguments import tool_arguments
from tests.operations import example_body, example_query, fill_path, platform_operations

from .conftest import all_but, call_tool, mcp, rest

OPERATIONS = platform_operations()
SCOPED = [op for op in OPERATIONS if op.scope != NO_SCOPE]
MISSING_ID = 1_999_999_999
INSUFFICIENT = "Insufficient access scope"


def unknown_path_values(operation) -> dict:
    return {
        name: MISSING_ID if schema.get("type") == "integer" else "no-such-thing"
        for name, schema in operation.path_params.items()
    }


def unknown(name):
    return MISSING_ID


def send(token, operation):
    url = fill_path(operation, unknown_path_values(operation))
    query = example_query(operation, unknown)
    if query:
        url += "?" + urlencode(query)
    return rest(token, operation.method, url, example_body(operation, unknown))


def tool_call(token, operation) -> dict:
    arguments = tool_arguments(
        operation.operation_id,
        unknown_path_values(operation),
        example_query(operation, unknown),
        example_body(operation, unknown),
    )
    return call_tool(token, operation.operation_id, arguments)


def short_body(operation) -> dict:
    """The 403 a credential holding none of the operation's scopes gets."""
    if isinstance(operation.scope, str):
        return {"error": INSUFFICIENT, "requiredScope": operation.scope}
    if isinstance(operation.scope, AllOf):
        return {"error": INSUFFICIENT, "requiredScope": operation.scope[0]}
    return {"error": INSUFFICIENT, "anyOf": sorted(operation.scopes)}  # its order: see assert_short_403


def refused_for_scope(response) -> bool:
    return response.status_code == 403 and response.json().get("error") == INSUFFICIENT


def assert_short_403(response, operation):
    assert response.status_code == 403, response.content
    body = response.json()
    expected = short_body(operation)
    if "anyOf" in expected:  # any of several: the first of the spec's order is named, all are listed
        assert body["error"] == INSUFFICIENT and set(body["anyOf"]) == set(operation.scopes), body
        assert body["requiredScope"] == body["anyOf"][0] and body["requiredScope"] in operation.scopes
    else:
        assert body == expected


def test_the_matrix_covers_every_operation_and_every_tool():
    """Every documented operation is a row (scoped, or declared to need no scope), and every MCP tool one of them."""
    documented = {op.operation_id for op in OPERATIONS}
    assert {op.operation_id for op in SCOPED} | {op.operation_id for op in OPERATIONS if op.scope == NO_SCOPE} == (
        documented
    )
    assert {tool.name for tool in catalogue().tools} == documented
    assert [op.operation_id for op in OPERATIONS if op.scope == NO_SCOPE] == ["me_get", "organization_get"]


@pytest.mark.parametrize("operation", SCOPED, ids=lambda op: op.id)
def test_api_key(operation, credentials):
    assert_short_403(send(credentials.key(all_but(operation.scopes)), operation), operation)
    assert not refused_for_scope(send(credentials.key(["*"]), operation))
    if isinstance(operation.scope, AllOf):
        assert not refused_for_scope(send(credentials.key(operation.scopes), operation))
        for scope in operation.scopes:  # holding every scope but one: the 403 names the one that is missing
            response = send(credentials.key(all_but([scope])), operation)
            assert response.status_code == 403
            assert response.json() == {"error": INSUFFICIENT, "requiredScope": scope}
    else:
        for scope in operation.scopes:  # exactly the scope, or any one of several
            assert not refused_for_scope(send(credentials.key([scope]), operation)), scope


@pytest.mark.parametrize("operation", SCOPED, ids=lambda op: op.id)
def test_oauth_access_token_and_mcp_tool(operation, credentials):
    assert_short_403(send(credentials.oauth(all_but(operation.scopes)), operation), operation)
    refused = tool_call(credentials.key(all_but(operation.scopes)), operation)
    assert refused["isError"] is True, refused
    body = dict(refused["structuredContent"])
    assert body.pop("status") == 403, refused
    if isinstance(operation.scope, frozenset):
        assert set(body["anyOf"]) == set(operation.scopes) and body["requiredScope"] == body["anyOf"][0]
    else:
        assert body == short_body(operation)
    answer = tool_call(credentials.oauth(operation.scopes), operation)
    assert answer["structuredContent"].get("error") != INSUFFICIENT, answer


def test_tools_list_is_the_same_for_every_credential(credentials):
    """docs/mcp.md: `tools/list` is identical for every credential; the scope is enforced on the call."""

    def names(token):
        listed, cursor = [], None
        while True:
            page = mcp(token, "tools/list", {"cursor": cursor} if cursor else {})
            listed += [tool["name"] for tool in page["tools"]]
            cursor = page.get("nextCursor")
            if not cursor:
                return listed

    everything = names(credentials.key(["*"]))
    assert everything == names(credentials.key([])) == names(credentials.oauth(["classes:read"]))
    assert set(everything) == {op.operation_id for op in OPERATIONS}
