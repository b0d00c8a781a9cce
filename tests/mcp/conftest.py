"""A live gunicorn serving the test database, for the tests that drive the official MCP SDK clients over HTTP."""

import http.client
import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest
from django.conf import settings as django_settings
from django.db import connection

from tests.server_env import free_port, stop, wait_until_up

ROOT = Path(__file__).resolve().parents[2]
SERVER_SECRETS = {"SECRET_KEY": secrets.token_hex(32), "API_KEY_PEPPER": secrets.token_hex(32)}

MODERN = "2026-07-28"
META = {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}}


class LiveServer:
    def __init__(self, port: int):
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.mcp_url = f"{self.base}/mcp/admin"

    def post(self, body, token=None, headers=None, path="/mcp/admin"):
        """One raw POST: (status, headers, parsed body or None)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        all_headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        if token:
            all_headers["Authorization"] = f"Bearer {token}"
        all_headers.update(headers or {})
        payload = body if isinstance(body, bytes) else orjson.dumps(body)
        conn.request("POST", path, body=payload, headers=all_headers)
        response = conn.getresponse()
        raw = response.read()
        conn.close()
        return response.status, dict(response.getheaders()), (orjson.loads(raw) if raw else None)


@pytest.fixture(scope="module")
def mcp_server(django_db_setup):
    """One gunicorn (two threads, as production runs) on the test database and the tests' Redis database."""
    db = connection.settings_dict
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
        "REDIS_URL": django_settings.CACHES["default"].get("LOCATION", ""),
        "BASE_URL": f"http://127.0.0.1:{port}",
        "MCP_URL": f"http://127.0.0.1:{port}/mcp",
        "LOG_LEVEL": "WARNING",
        **SERVER_SECRETS,  # with DEBUG off the server refuses development secrets
    }
    cmd = [sys.executable, "-m", "gunicorn", "config.wsgi", "-w", "1", "--threads", "2", "-b", f"127.0.0.1:{port}"]
    cmd += ["--log-level", "warning", "--timeout", "120"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_until_up(port, proc, time.monotonic() + 30)
        yield LiveServer(port)
    finally:
        stop(proc)


@pytest.fixture
def server_keys(settings):
    """API keys issued by the tests hash as the live server hashes them."""
    settings.API_KEY_PEPPER = SERVER_SECRETS["API_KEY_PEPPER"]
    settings.SECRET_KEY = SERVER_SECRETS["SECRET_KEY"]


def rpc_body(method, params=None, message_id=1, meta=True):
    params = dict(params or {})
    if meta:
        params["_meta"] = META
    return {"jsonrpc": "2.0", "id": message_id, "method": method, "params": params}


def modern_headers(method, name=None):
    headers = {"MCP-Protocol-Version": MODERN, "Mcp-Method": method}
    if name is not None:
        headers["Mcp-Name"] = name
    return headers
