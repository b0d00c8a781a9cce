"""The official `mcp` 1.x SDK client (handshake era: `initialize`, `notifications/initialized`, then requests with
`MCP-Protocol-Version: 2025-11-25`) against a live gunicorn, unmodified.

That client's package is also named `mcp`, so it cannot live in the test environment beside the 2.x client: it is
installed into `.venv-mcp1/` (`make mcp1`, which `make test` runs; this test creates it too when missing) and
driven in a subprocess (`handshake_client.py`).
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from apps.contacts.models import Contact
from apps.mcp.catalogue import catalogue

ROOT = Path(__file__).resolve().parents[2]
VENV = ROOT / ".venv-mcp1"
PYTHON = VENV / "bin" / "python"
PIN = "mcp==1.27.2"

pytestmark = pytest.mark.usefixtures("server_keys")


def handshake_python() -> Path:
    if not PYTHON.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run([str(PYTHON), "-m", "pip", "install", "-q", PIN], check=True, timeout=600)
    return PYTHON


def run_client(url, token, calls) -> dict:
    completed = subprocess.run(
        [str(handshake_python()), str(Path(__file__).with_name("handshake_client.py")), url, token, json.dumps(calls)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    return json.loads(completed.stdout)


def test_the_handshake_era_client_lists_every_tool_and_calls_tools(
    mcp_server, transactional_db, make_token, organization, club
):
    seen = run_client(
        mcp_server.mcp_url,
        make_token("*"),
        [
            ["clubs_list", {}],
            ["contacts_create", {"firstName": "Grace", "lastName": "Hopper"}],
            ["contacts_list", {"limit": "many"}],
        ],
    )
    assert seen["protocolVersion"] == "2025-11-25"
    assert seen["serverName"] == "platform-admin"
    assert [t["name"] for t in seen["tools"]] == [t.name for t in catalogue().tools]
    clubs, created, invalid = seen["results"]
    assert clubs["isError"] is False
    assert clubs["structuredContent"]["data"][0]["slug"] == club.slug
    assert created["isError"] is False
    contact = Contact.objects.get(organization=organization)
    assert created["structuredContent"]["id"] == contact.pk and contact.last_name == "Hopper"
    assert invalid["isError"] is True
    assert invalid["structuredContent"]["details"]["fields"] == {"limit": ["Must be of type integer."]}


def test_the_handshake_era_client_sees_a_scope_refusal_as_a_tool_error(
    mcp_server, transactional_db, make_token, organization
):
    seen = run_client(mcp_server.mcp_url, make_token("clubs:read"), [["contacts_create", {"firstName": "No"}]])
    (refused,) = seen["results"]
    assert refused["isError"] is True
    assert refused["structuredContent"] == {
        "error": "Insufficient access scope",
        "requiredScope": "contacts:write",
        "status": 403,
    }
    assert json.loads(refused["content"][0]["text"]) == refused["structuredContent"]
    assert not Contact.objects.exists()
