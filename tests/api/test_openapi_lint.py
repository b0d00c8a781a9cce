"""The served OpenAPI document passes the public linters' recommended rulesets, unloosened: Redocly's `recommended`
with no error and Spectral's `spectral:oas` with no warning. The linters are pinned npm packages in
tools/openapi-lint (`make test` installs them there, like the virtualenv)."""

import json
import os
import subprocess
from pathlib import Path

import pytest
from rest_framework.test import APIClient

TOOLS = Path(__file__).resolve().parents[2] / "tools" / "openapi-lint"
BIN = TOOLS / "node_modules" / ".bin"


@pytest.fixture(scope="module")
def document_file(django_db_setup, django_db_blocker, tmp_path_factory):
    assert (BIN / "redocly").exists() and (BIN / "spectral").exists(), (
        "the OpenAPI linters are not installed: run `make lint-tools` (part of `make test`)"
    )
    with django_db_blocker.unblock():
        response = APIClient().get("/v1/openapi.json")
    assert response.status_code == 200
    path = tmp_path_factory.mktemp("openapi") / "openapi.json"
    path.write_bytes(response.content)
    return path


def run(*command):
    env = {**os.environ, "REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true", "NO_COLOR": "1"}
    return subprocess.run(command, cwd=TOOLS, env=env, capture_output=True, text=True, timeout=300)


def test_redocly_recommended_reports_no_error(document_file):
    result = run(str(BIN / "redocly"), "lint", "--config", "redocly.yaml", "--format", "json", str(document_file))
    report = json.loads(result.stdout)
    errors = [
        f"{problem['ruleId']}: {problem['message']} at {problem['location'][0]['pointer']}"
        for problem in report["problems"]
        if problem["severity"] == "error"
    ]
    assert not errors, f"{len(errors)} Redocly errors:\n" + "\n".join(errors[:50])
    assert result.returncode == 0, result.stderr[-2000:]


def test_spectral_oas_reports_no_warning(document_file):
    result = run(
        str(BIN / "spectral"),
        "lint",
        "--ruleset",
        ".spectral.yaml",
        "--format",
        "json",
        "--fail-severity",
        "warn",
        "--quiet",
        str(document_file),
    )
    findings = json.loads(result.stdout or "[]")
    # Spectral severities: 0 error, 1 warning, 2 info, 3 hint.
    problems = [
        f"{f['code']}: {f['message']} at {'/'.join(map(str, f['path']))}" for f in findings if f["severity"] <= 1
    ]
    assert not problems, f"{len(problems)} Spectral warnings or errors:\n" + "\n".join(problems[:50])
    assert result.returncode == 0, (result.stdout[-2000:], result.stderr[-2000:])
