"""The official `mcp` Python SDK client (2.x, which negotiates `2026-07-28`) against a live gunicorn, unmodified:
connect, list every tool, call a read and a write tool, see a scope refusal and an invalid argument as tool errors.
"""

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from apps.contacts.models import Contact
from apps.mcp.catalogue import catalogue

pytestmark = pytest.mark.usefixtures("server_keys")


def connect(mcp_server, token, url=None, mode="auto"):
    http_client = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60)
    return Client(streamable_http_client(url or mcp_server.mcp_url, http_client=http_client), mode=mode)


async def every_tool(client) -> list:
    tools, cursor = [], None
    while True:
        page = await client.list_tools(cursor=cursor)
        tools += page.tools
        cursor = page.next_cursor
        if cursor is None:
            return tools


def run(fn):
    return anyio.run(fn)


def test_the_sdk_negotiates_the_stateless_revision_and_lists_every_tool(mcp_server, transactional_db, make_token):
    token = make_token("*")

    async def scenario():
        async with connect(mcp_server, token) as client:
            assert client.protocol_version == "2026-07-28"
            assert client.server_info.name == "platform-admin"
            assert client.server_capabilities.tools is not None
            return await every_tool(client)

    tools = run(scenario)
    names = [t.name for t in tools]
    assert names == sorted(t.name for t in catalogue().tools)
    assert len(names) == len(set(names)) > 150
    classes_list = next(t for t in tools if t.name == "classes_list")
    assert classes_list.annotations.read_only_hint is True
    assert classes_list.annotations.open_world_hint is False
    assert "classes:read" in classes_list.description
    assert classes_list.input_schema["properties"]["limit"]["maximum"] == 200


def test_a_read_tool_and_a_write_tool_with_an_api_key(mcp_server, transactional_db, make_token, organization, club):
    token = make_token("*")

    async def scenario():
        async with connect(mcp_server, token) as client:
            # Listed first, so the SDK validates each result against the tool's outputSchema (it raises otherwise).
            await every_tool(client)
            clubs = await client.call_tool("clubs_list", {"limit": 10})
            created = await client.call_tool(
                "contacts_create", {"firstName": "Ada", "lastName": "Lovelace", "idempotencyKey": "sdk-1"}
            )
            again = await client.call_tool(
                "contacts_create", {"firstName": "Ada", "lastName": "Lovelace", "idempotencyKey": "sdk-1"}
            )
            deleted = await client.call_tool("area_blocks_delete", {"id": 999999})
            return clubs, created, again, deleted

    clubs, created, again, deleted = run(scenario)
    assert clubs.is_error is False
    assert clubs.structured_content["total"] == 1
    assert clubs.structured_content["data"][0]["slug"] == club.slug
    assert clubs.structured_content["limit"] == 10
    assert created.is_error is False
    contact = Contact.objects.get(organization=organization)
    assert (contact.first_name, contact.last_name) == ("Ada", "Lovelace")
    assert created.structured_content["id"] == contact.pk
    assert again.structured_content == created.structured_content  # replayed, not created twice
    assert Contact.objects.filter(organization=organization).count() == 1
    assert deleted.is_error is True
    assert deleted.structured_content["status"] == 404
    assert deleted.structured_content["code"] == "NOT_FOUND"


def test_scope_refusal_and_invalid_arguments_are_tool_errors(mcp_server, transactional_db, make_token, organization):
    token = make_token("contacts:read")

    async def scenario():
        async with connect(mcp_server, token) as client:
            refused = await client.call_tool("contacts_create", {"firstName": "Nope"})
            invalid = await client.call_tool("contacts_list", {"limit": 0, "q": 7})
            return refused, invalid

    refused, invalid = run(scenario)
    assert refused.is_error is True
    assert refused.structured_content == {
        "error": "Insufficient access scope",
        "requiredScope": "contacts:write",
        "status": 403,
    }
    assert invalid.is_error is True
    assert invalid.structured_content["status"] == 400
    assert invalid.structured_content["code"] == "VALIDATION_ERROR"
    assert set(invalid.structured_content["details"]["fields"]) == {"limit", "q"}
    assert not Contact.objects.filter(organization=organization).exists()


def test_an_unknown_tool_is_a_protocol_error(mcp_server, transactional_db, make_token):
    token = make_token("*")

    async def scenario():
        async with connect(mcp_server, token) as client:
            try:
                await client.call_tool("no_such_tool", {})
            except MCPError as error:
                return error

    error = run(scenario)
    assert error is not None and error.error.code == -32602


def test_the_readonly_surface_lists_and_accepts_only_read_tools(mcp_server, transactional_db, make_token):
    token = make_token("*")

    async def scenario():
        async with connect(mcp_server, token, url=f"{mcp_server.mcp_url}/readonly?toolsets=classes") as client:
            tools = await every_tool(client)
            try:
                await client.call_tool("classes_create", {})
            except MCPError as error:
                return tools, error
            return tools, None

    tools, error = run(scenario)
    names = {t.name for t in tools}
    assert "classes_list" in names and "class_types_list" in names and "me_get" in names
    assert "classes_create" not in names and "contacts_list" not in names
    assert all(t.annotations.read_only_hint for t in tools)
    assert error is not None and error.error.code == -32602


def test_without_a_credential_the_client_is_told_where_to_authorize(mcp_server, transactional_db):
    status, headers, body = mcp_server.post({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    assert status == 401
    assert headers["WWW-Authenticate"] == (
        f'Bearer resource_metadata="{mcp_server.base}/mcp/.well-known/oauth-protected-resource"'
    )
    assert body["code"] == "UNAUTHENTICATED"


def test_a_read_tool_and_a_write_tool_with_an_oauth_token(mcp_server, transactional_db, make_oauth_token, organization):
    token = make_oauth_token("contacts:read contacts:write", resource=mcp_server.mcp_url)

    async def scenario():
        async with connect(mcp_server, token) as client:
            created = await client.call_tool("contacts_create", {"firstName": "Tok", "idempotencyKey": "oauth-1"})
            listed = await client.call_tool("contacts_list", {"q": "tok"})
            me = await client.call_tool("me_get", {})
            refused = await client.call_tool("classes_list", {})
            return created, listed, me, refused

    created, listed, me, refused = run(scenario)
    assert created.is_error is False
    assert listed.structured_content["total"] == 1
    assert listed.structured_content["data"][0]["id"] == created.structured_content["id"]
    assert me.structured_content["credential"]["type"] == "oauth"
    assert refused.structured_content == {
        "error": "Insufficient access scope",
        "requiredScope": "classes:read",
        "status": 403,
    }
    assert Contact.objects.filter(organization=organization, first_name="Tok").count() == 1


def test_an_oauth_token_for_another_resource_is_refused(mcp_server, transactional_db, make_oauth_token):
    token = make_oauth_token("*", resource=f"{mcp_server.base}/v1/platform")
    status, headers, body = mcp_server.post({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, token=token)
    assert status == 401
    assert headers["WWW-Authenticate"].startswith('Bearer resource_metadata="')
    assert body["code"] == "UNAUTHENTICATED"


def test_the_same_sdk_forced_to_the_handshake_works_too(mcp_server, transactional_db, make_token, organization):
    token = make_token("*")

    async def scenario():
        async with connect(mcp_server, token, mode="legacy") as client:
            tools = await every_tool(client)
            me = await client.call_tool("me_get", {})
            return client.protocol_version, tools, me

    version, tools, me = run(scenario)
    assert version == "2025-11-25"
    assert len(tools) == len(catalogue().tools)
    assert me.structured_content["organization"]["id"] == organization.id
