"""The MCP endpoint's protocol, both eras, in process: what each kind of message gets, and what bad input gets."""

from datetime import timedelta

import orjson
import pytest
from django.test import Client
from django.utils import timezone

from apps.contacts.models import Contact
from apps.mcp.catalogue import PAGE_SIZE, catalogue

from .conftest import META, MODERN, modern_headers, rpc_body

URL = "/mcp/admin"


def wsgi_headers(headers: dict) -> dict:
    return {"HTTP_" + name.upper().replace("-", "_"): value for name, value in headers.items()}


def post(token, body, headers=None, path=URL):
    payload = body if isinstance(body, bytes) else orjson.dumps(body)
    extra = wsgi_headers(headers or {})
    if token:
        extra["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    return Client().post(path, payload, content_type="application/json", **extra)


def modern(token, method, params=None, path=URL, name=None):
    return post(token, rpc_body(method, params), modern_headers(method, name), path=path)


def legacy(token, method, params=None, version="2025-11-25", message_id=1):
    headers = {"MCP-Protocol-Version": version} if version else {}
    return post(token, rpc_body(method, params, message_id=message_id, meta=False), headers)


def result(response) -> dict:
    assert response.status_code == 200, response.content
    body = orjson.loads(response.content)
    assert "error" not in body, body
    return body["result"]


def error(response) -> dict:
    return orjson.loads(response.content)["error"]


@pytest.fixture
def token(make_token):
    return make_token("*")


# --- the handshake revisions --------------------------------------------------------------------------------------


@pytest.mark.parametrize("version", ["2025-03-26", "2025-06-18", "2025-11-25"])
def test_initialize_answers_the_version_the_client_asks_for(db, token, version):
    response = post(
        token,
        rpc_body(
            "initialize",
            {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
            meta=False,
        ),
    )
    answer = result(response)
    assert answer["protocolVersion"] == version
    assert answer["capabilities"] == {"tools": {}}
    assert answer["serverInfo"]["name"] == "platform-admin"
    assert "Mcp-Session-Id" not in response.headers


def test_initialize_with_an_unknown_version_offers_the_latest_handshake_revision(db, token):
    answer = result(
        post(token, rpc_body("initialize", {"protocolVersion": "2024-01-01", "capabilities": {}}, meta=False))
    )
    assert answer["protocolVersion"] == "2025-11-25"


def test_notifications_get_202_without_a_body(db, token):
    response = post(
        token, {"jsonrpc": "2.0", "method": "notifications/initialized"}, {"MCP-Protocol-Version": "2025-06-18"}
    )
    assert response.status_code == 202
    assert response.content == b""


def test_handshake_era_requests_need_no_session(db, token):
    """Any process answers: a tools/list that never saw this client's initialize is answered."""
    tools = result(legacy(token, "tools/list"))["tools"]
    assert len(tools) == min(PAGE_SIZE, len(catalogue().tools))
    assert result(legacy(token, "ping")) == {}
    assert result(legacy(token, "ping", version=None)) == {}  # no header: 2025-03-26


def test_handshake_era_refuses_an_unsupported_protocol_version_header(db, token):
    response = legacy(token, "ping", version="2024-11-05")
    assert response.status_code == 400
    assert error(response)["code"] == -32022
    assert error(response)["data"]["supported"] == ["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]


def test_handshake_era_unknown_method(db, token):
    response = legacy(token, "resources/list")
    assert response.status_code == 200
    assert error(response)["code"] == -32601


# --- the stateless revision ---------------------------------------------------------------------------------------


def test_discover_names_versions_capabilities_server_and_tools(db, token):
    answer = result(modern(token, "server/discover"))
    assert "2026-07-28" in answer["supportedVersions"] and "2025-11-25" in answer["supportedVersions"]
    assert answer["protocolVersion"] == MODERN
    assert answer["capabilities"] == {"tools": {}}
    assert answer["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "platform-admin"
    assert answer["resultType"] == "complete"
    assert answer["cacheScope"] == "public" and answer["ttlMs"] > 0
    assert [t["name"] for t in answer["tools"]] == [t.name for t in catalogue().tools[:PAGE_SIZE]]


def test_modern_headers_must_agree_with_the_body(db, token):
    body = rpc_body("tools/list")
    mismatched = post(token, body, {"MCP-Protocol-Version": MODERN, "Mcp-Method": "ping"})
    assert mismatched.status_code == 400
    assert error(mismatched)["code"] == -32020
    no_version = post(token, body, {"Mcp-Method": "tools/list"})
    assert error(no_version)["code"] == -32020
    call = rpc_body("tools/call", {"name": "me_get", "arguments": {}})
    wrong_name = post(token, call, modern_headers("tools/call", "clubs_list"))
    assert error(wrong_name)["code"] == -32020
    base64_name = post(token, call, modern_headers("tools/call", "=?base64?bWVfZ2V0?="))  # "me_get"
    assert result(base64_name)["isError"] is False


def test_unsupported_modern_version_lists_the_supported_ones(db, token):
    body = rpc_body("tools/list")
    body["params"]["_meta"] = {**META, "io.modelcontextprotocol/protocolVersion": "2027-01-01"}
    response = post(token, body, {"MCP-Protocol-Version": "2027-01-01", "Mcp-Method": "tools/list"})
    assert response.status_code == 400
    assert error(response) == {
        "code": -32022,
        "message": "Unsupported protocol version",
        "data": {"supported": ["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"], "requested": "2027-01-01"},
    }


def test_modern_request_without_its_envelope_is_invalid_params(db, token):
    response = post(token, rpc_body("tools/list", meta=False), modern_headers("tools/list"))
    assert response.status_code == 400
    assert error(response)["code"] == -32602


def test_modern_unknown_method_is_404(db, token):
    response = modern(token, "prompts/list")
    assert response.status_code == 404
    assert error(response)["code"] == -32601


# --- tools/list --------------------------------------------------------------------------------------------------


def test_tools_list_pages_through_every_tool_with_an_opaque_cursor(db, token):
    names, cursor = [], None
    for _ in range(20):
        answer = result(modern(token, "tools/list", {"cursor": cursor} if cursor else {}))
        names += [t["name"] for t in answer["tools"]]
        cursor = answer.get("nextCursor")
        if cursor is None:
            break
    assert names == [t.name for t in catalogue().tools]
    bad = modern(token, "tools/list", {"cursor": "not-a-cursor"})
    assert error(bad)["code"] == -32602


def test_tools_list_is_identical_for_every_credential(db, make_token):
    full = result(modern(make_token("*"), "tools/list"))
    narrow = result(modern(make_token("clubs:read"), "tools/list"))
    assert full == narrow


def test_every_tool_states_its_schemas_scope_and_four_annotations(db, token):
    tools = {t["name"]: t for t in result(modern(token, "tools/list"))["tools"]}
    tools.update({t.name: t.definition() for t in catalogue().tools})
    for tool in tools.values():
        assert tool["inputSchema"]["type"] == "object"
        assert tool["outputSchema"]["type"] == "object"
        assert set(tool["annotations"]) >= {"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}
        assert tool["annotations"]["openWorldHint"] is False
    assert tools["classes_delete"]["outputSchema"] == {"type": "object"}
    assert tools["classes_delete"]["annotations"]["destructiveHint"] is True
    assert tools["classes_create"]["annotations"] | {} == {
        "title": "Create a class or a recurring series",
        "readOnlyHint": False,
        "destructiveHint": False,
        "idempotentHint": False,
        "openWorldHint": False,
    }
    assert "idempotencyKey" in tools["classes_create"]["inputSchema"]["properties"]
    assert "idempotencyKey" not in tools["classes_update"]["inputSchema"]["properties"]
    assert "Required scope: `classes:write`" in tools["classes_create"]["description"]
    create = tools["classes_create"]["inputSchema"]
    assert set(create["required"]) == {"clubId", "name", "startTime", "endTime"}
    assert create["properties"]["visibility"]["enum"] == ["Public", "Member_only", "Private"]
    assert create["properties"]["name"]["maxLength"] == 100
    assert tools["classes_get"]["inputSchema"]["required"] == ["id"]


@pytest.mark.parametrize(
    ("toolsets", "present", "absent"),
    [
        (
            "classes,bookings",
            {"class_types_list", "class_bookings_create", "me_get", "classes_list"},
            {"contacts_list", "areas_list"},
        ),
        ("contacts,nonsense", {"contacts_list", "pipeline_stages_list", "me_get"}, {"classes_list"}),
        ("nonsense", {"me_get"}, {"classes_list"}),
    ],
)
def test_toolsets_narrow_the_surface(db, token, toolsets, present, absent):
    names = set()
    cursor = None
    while True:
        answer = result(
            modern(token, "tools/list", {"cursor": cursor} if cursor else {}, path=f"{URL}?toolsets={toolsets}")
        )
        names |= {t["name"] for t in answer["tools"]}
        cursor = answer.get("nextCursor")
        if not cursor:
            break
    assert present <= names
    assert not absent & names
    outside = modern(
        token,
        "tools/call",
        {"name": sorted(absent)[0], "arguments": {}},
        path=f"{URL}?toolsets={toolsets}",
        name=sorted(absent)[0],
    )
    assert error(outside)["code"] == -32602


def test_readonly_surface(db, token):
    answer = result(modern(token, "tools/list", path=f"{URL}/readonly"))
    assert all(t["annotations"]["readOnlyHint"] for t in answer["tools"])
    refused = modern(
        token,
        "tools/call",
        {"name": "contacts_create", "arguments": {"firstName": "A"}},
        path=f"{URL}/readonly",
        name="contacts_create",
    )
    assert error(refused)["code"] == -32602
    assert not Contact.objects.exists()


# --- tools/call ---------------------------------------------------------------------------------------------------


def call(token, name, arguments, path=URL):
    return result(modern(token, "tools/call", {"name": name, "arguments": arguments}, path=path, name=name))


def test_a_call_returns_the_rest_body_and_its_json(db, token, organization):
    answer = call(token, "me_get", {})
    assert answer["isError"] is False
    assert answer["structuredContent"]["organization"]["id"] == organization.pk
    assert orjson.loads(answer["content"][0]["text"]) == answer["structuredContent"]
    assert answer["content"][0]["type"] == "text"


def test_a_204_operation_answers_an_empty_object_and_no_content(db, token, organization):
    template = call(token, "templates_create", {"name": "Hi", "channel": "sms", "body": "Hello"})
    answer = call(token, "templates_delete", {"id": template["structuredContent"]["id"]})
    assert answer == {
        "content": [{"type": "text", "text": "No content"}],
        "structuredContent": {},
        "isError": False,
        "resultType": "complete",
        "_meta": answer["_meta"],
    }


def test_api_errors_carry_the_exact_http_body_plus_status(db, token, make_token):
    missing = call(token, "contacts_get", {"id": 424242})
    assert missing["isError"] is True
    assert missing["structuredContent"] == {
        "error": "Not Found",
        "message": "The requested resource was not found.",
        "code": "NOT_FOUND",
        "status": 404,
    }
    rest = Client().get("/v1/platform/contacts/424242", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert {**orjson.loads(rest.content), "status": rest.status_code} == missing["structuredContent"]


def test_invalid_arguments_are_a_tool_error_keyed_by_argument(db, token, organization):
    answer = call(token, "contacts_create", {"firstName": 12, "email": ["x"], "tags": "vip"})
    assert answer["isError"] is True
    body = answer["structuredContent"]
    assert body["status"] == 400 and body["code"] == "VALIDATION_ERROR"
    assert set(body["details"]["fields"]) == {"firstName", "email", "tags"}
    missing = call(token, "contacts_create", {})["structuredContent"]
    assert missing["details"]["fields"] == {"firstName": ["This field is required."]}
    nested = call(
        token,
        "classes_create",
        {
            "clubId": 1,
            "name": "x",
            "startTime": "2030-01-01T10:00:00Z",
            "endTime": "2030-01-01T11:00:00Z",
            "recurrence": {"frequency": "hourly", "ends": {"type": "after", "occurrences": 0}},
        },
    )
    assert set(nested["structuredContent"]["details"]["fields"]) == {
        "recurrence.frequency",
        "recurrence.ends.occurrences",
    }
    assert not Contact.objects.exists()


def test_rest_validation_still_applies_behind_the_schema(db, token, organization):
    """The schema checks shapes; the REST view checks the rest (here a foreign or missing id) the same way."""
    answer = call(token, "contacts_update", {"id": 1, "firstName": "x"})
    assert answer["structuredContent"]["status"] == 404


@pytest.mark.parametrize("arguments", [[1, 2], "text", 5])
def test_arguments_that_are_not_an_object_are_a_protocol_error(db, token, arguments):
    response = modern(token, "tools/call", {"name": "me_get", "arguments": arguments}, name="me_get")
    assert response.status_code == 400
    assert error(response)["code"] == -32602


def test_unknown_tool(db, token):
    response = modern(token, "tools/call", {"name": "nope", "arguments": {}}, name="nope")
    assert error(response)["code"] == -32602


def test_idempotency_key_replays_like_rest(db, token, organization):
    first = call(token, "contacts_create", {"firstName": "Bo", "idempotencyKey": "k-1"})
    second = call(token, "contacts_create", {"firstName": "Bo", "idempotencyKey": "k-1"})
    assert first["structuredContent"] == second["structuredContent"]
    reused = call(token, "contacts_create", {"firstName": "Other", "idempotencyKey": "k-1"})
    assert reused["structuredContent"]["status"] == 422
    assert reused["structuredContent"]["code"] == "IDEMPOTENCY_KEY_REUSED"
    assert Contact.objects.filter(organization=organization).count() == 1


# --- transport and credentials ------------------------------------------------------------------------------------


def test_get_and_delete_are_405(db, token):
    for method in ("get", "delete"):
        response = getattr(Client(), method)(URL, HTTP_AUTHORIZATION=f"Bearer {token}")
        assert response.status_code == 405
        assert response["Allow"] == "POST"
        assert orjson.loads(response.content)["code"] == "METHOD_NOT_ALLOWED"


@pytest.mark.parametrize(
    ("payload", "code", "status"),
    [
        (b"{not json", -32700, 400),
        (b"", -32700, 400),
        (b'[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]', -32600, 400),
        (b'"ping"', -32600, 400),
        (b'{"jsonrpc": "1.0", "id": 1, "method": "ping"}', -32600, 400),
        (b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "ping"}', -32600, 400),
        (b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": [1]}', -32602, 400),
    ],
)
def test_bad_messages_get_their_json_rpc_error(db, token, payload, code, status):
    response = post(token, payload, {"MCP-Protocol-Version": "2025-11-25"})
    assert response.status_code == status
    assert orjson.loads(response.content)["error"]["code"] == code


def test_missing_or_bad_credential_is_401_with_the_resource_metadata(db, make_token, settings):
    expected = f'Bearer resource_metadata="{settings.MCP_URL}/.well-known/oauth-protected-resource"'
    for token in (None, "nope", make_token("*", expires_at=timezone.now() - timedelta(days=1))):
        response = legacy(token, "tools/list")
        assert response.status_code == 401
        assert response["WWW-Authenticate"] == expected
        assert orjson.loads(response.content)["code"] == "UNAUTHENTICATED"
        assert "X-RateLimit-Limit" not in response


@pytest.mark.parametrize(
    ("field", "value", "code"),
    [("plan", "free", "PLAN_FEATURE_LOCKED"), ("plan", "trial", "PLAN_FEATURE_LOCKED"),
     ("status", "inactive", "ORGANIZATION_NOT_ACTIVE")],
)  # fmt: skip
def test_plan_and_organization_locks_are_http_403_with_the_error_body(db, organization, token, field, value, code):
    setattr(organization, field, value)
    organization.save()
    response = modern(token, "tools/call", {"name": "me_get", "arguments": {}}, name="me_get")
    assert response.status_code == 403
    body = orjson.loads(response.content)
    assert body["code"] == code and body["error"] == "Forbidden" and body["message"]


def test_requests_count_against_the_credential_once(db, token):
    listed = modern(token, "tools/list")
    assert listed["X-RateLimit-Remaining"] == "99"
    called = modern(token, "tools/call", {"name": "me_get", "arguments": {}}, name="me_get")
    assert called["X-RateLimit-Remaining"] == "98"
    invalid = modern(token, "tools/call", {"name": "contacts_list", "arguments": {"limit": "x"}}, name="contacts_list")
    assert invalid["X-RateLimit-Remaining"] == "97"


def test_past_the_limit_a_call_is_a_tool_error_and_anything_else_an_http_429(db, token, settings):
    settings.RATE_LIMIT_MULTIPLIER = 0.02  # 2 requests per window in the general bucket
    for _ in range(2):
        assert modern(token, "ping").status_code == 200
    listed = modern(token, "tools/list")
    assert listed.status_code == 429
    assert listed["Retry-After"]
    assert orjson.loads(listed.content)["code"] == "RATE_LIMITED"
    called = call(token, "contacts_create", {"firstName": "Late"})
    assert called["isError"] is True
    assert called["structuredContent"]["status"] == 429
    assert called["structuredContent"]["details"]["bucket"] == "general"
    assert not Contact.objects.exists()


def test_a_body_over_the_cap_is_413_before_anything_is_read(db, token):
    payload = orjson.dumps(rpc_body("tools/call", {"name": "contacts_create", "arguments": {"notes": "x" * 2_000_000}}))
    response = post(token, payload, modern_headers("tools/call", "contacts_create"))
    assert response.status_code == 413
    assert orjson.loads(response.content)["code"] == "PAYLOAD_TOO_LARGE"
    assert not Contact.objects.exists()
