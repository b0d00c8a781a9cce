"""drf-spectacular generates the document without a warning or an error: nothing in it is guessed."""

from django.core.management import call_command
from drf_spectacular.drainage import GENERATOR_STATS
from drf_spectacular.management.commands.spectacular import SchemaGenerationError
from drf_spectacular.settings import spectacular_settings
from rest_framework.test import APIClient


def reported_problems():
    return sorted(GENERATOR_STATS._warn_cache) + sorted(GENERATOR_STATS._error_cache)


def test_warnings_and_errors_are_reported_not_silenced():
    assert spectacular_settings.DISABLE_ERRORS_AND_WARNINGS is False


def test_the_document_generates_and_validates_without_warnings_or_errors(tmp_path):
    # The stats are process-wide and keep what earlier generations (e.g. /v1/openapi.json requests) reported.
    GENERATOR_STATS.reset()
    failure = None
    try:
        call_command("spectacular", validate=True, fail_on_warn=True, file=str(tmp_path / "openapi.yaml"))
    except SchemaGenerationError as exc:  # --fail-on-warn; the warnings themselves are in the stats
        failure = exc
    problems = reported_problems()
    GENERATOR_STATS.reset()
    assert problems == [] and failure is None, "\n".join(problems) or repr(failure)
    assert (tmp_path / "openapi.yaml").read_text().startswith("openapi: 3.0.0")


def test_the_served_document_generates_without_warnings_or_errors(db):
    GENERATOR_STATS.reset()
    response = APIClient().get("/v1/openapi.json")
    problems = reported_problems()
    GENERATOR_STATS.reset()
    assert response.status_code == 200
    assert problems == [], "\n".join(problems)


def test_the_document_stands_alone(client):
    """Users read the served document, not the project's source material: no references to files outside it."""
    text = client.get("/v1/openapi.json").content.decode()
    assert "API.md" not in text and "../shared" not in text and "spec §" not in text
