"""Run by tests/mcp/test_sdk_handshake_client.py with `.venv-mcp1/bin/python` (the official `mcp` 1.x SDK, which
speaks the handshake revisions): connects to the MCP server given on the command line, lists every tool, makes the
calls given as JSON, and prints what it saw as one JSON document. Not collected by pytest (no `test_` prefix)."""

import asyncio
import json
import sys

import httpx
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client


async def main(url: str, token: str, calls: list) -> dict:
    http_client = httpx.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60)
    async with streamable_http_client(url, http_client=http_client) as (read, write, _session_id):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            tools, cursor = [], None
            while True:
                page = await session.list_tools(cursor=cursor)
                tools += [tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in page.tools]
                cursor = page.nextCursor
                if cursor is None:
                    break
            results = []
            for name, arguments in calls:
                result = await session.call_tool(name, arguments)
                results.append(result.model_dump(mode="json", by_alias=True, exclude_none=True))
            return {
                "protocolVersion": init.protocolVersion,
                "serverName": init.serverInfo.name,
                "tools": tools,
                "results": results,
            }


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1], sys.argv[2], json.loads(sys.argv[3])))))
