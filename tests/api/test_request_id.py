"""The request id: accepted from a trusted proxy only, sane or replaced, in every log record and in 500 bodies."""

import json
import logging

import pytest

from apps.api.logs import JsonFormatter, RequestIdFilter

pytestmark = pytest.mark.urls("tests.api.urls_for_tests")

ME = "/v1/platform/me"


def test_echoed_from_a_trusted_proxy(api, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    response = api.get(ME, HTTP_X_REQUEST_ID="lb-7f3a.1", HTTP_X_FORWARDED_FOR="198.51.100.4")
    assert response.status_code == 200
    assert response["X-Request-Id"] == "lb-7f3a.1"


def test_replaced_when_no_proxy_is_trusted(api, settings):
    settings.TRUSTED_PROXY_COUNT = 0
    response = api.get(ME, HTTP_X_REQUEST_ID="chosen-by-client", HTTP_X_FORWARDED_FOR="198.51.100.4")
    assert response["X-Request-Id"] != "chosen-by-client"
    assert len(response["X-Request-Id"]) == 32


def test_replaced_when_the_request_did_not_come_through_the_proxies(api, settings):
    settings.TRUSTED_PROXY_COUNT = 2
    response = api.get(ME, HTTP_X_REQUEST_ID="chosen-by-client", HTTP_X_FORWARDED_FOR="198.51.100.4")
    assert response["X-Request-Id"] != "chosen-by-client"


@pytest.mark.parametrize("bad", ["has space", "x" * 101, "new\nline", "trailing\n", "ünïcode", "semi;colon"])
def test_insane_ids_from_a_trusted_proxy_are_replaced(api, settings, bad):
    settings.TRUSTED_PROXY_COUNT = 1
    response = api.get(ME, HTTP_X_REQUEST_ID=bad, HTTP_X_FORWARDED_FOR="198.51.100.4")
    assert response["X-Request-Id"] != bad
    assert len(response["X-Request-Id"]) == 32


def test_the_500_body_the_header_and_the_log_record_carry_the_same_id(api, settings, caplog):
    settings.TRUSTED_PROXY_COUNT = 1
    caplog.handler.addFilter(RequestIdFilter())
    with caplog.at_level(logging.ERROR, logger="apps.api"):
        response = api.get("/v1/platform/_test/boom", HTTP_X_REQUEST_ID="abc-500", HTTP_X_FORWARDED_FOR="198.51.100.4")
    assert response.status_code == 500
    assert response["X-Request-Id"] == "abc-500"
    assert response.json()["details"] == {"requestId": "abc-500"}
    records = [r for r in caplog.records if r.name == "apps.api" and r.levelno == logging.ERROR]
    assert records and all(r.request_id == "abc-500" for r in records)


def test_a_generated_id_is_in_the_log_records_of_the_request(api, caplog):
    caplog.handler.addFilter(RequestIdFilter())
    with caplog.at_level(logging.ERROR, logger="apps.api"):
        response = api.get("/v1/platform/_test/boom")
    body_id = response.json()["details"]["requestId"]
    assert body_id == response["X-Request-Id"] and len(body_id) == 32
    assert [r.request_id for r in caplog.records if r.name == "apps.api"] == [body_id]


def test_outside_a_request_the_record_says_so():
    record = logging.LogRecord("apps.x", logging.INFO, __file__, 1, "hello", None, None)
    RequestIdFilter().filter(record)
    assert record.request_id == "-"


def test_json_log_lines_parse_and_carry_the_exception(api, settings):
    """The handler as configured for LOG_FORMAT=json: one line per record, parsed back."""
    import io

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(RequestIdFilter())
    logger = logging.getLogger("apps.api")
    logger.addHandler(handler)
    try:
        response = api.get("/v1/platform/_test/boom")
        logging.getLogger("apps.observability.test").warning("outside %s", "any request")
    finally:
        logger.removeHandler(handler)
    lines = stream.getvalue().splitlines()
    entries = [json.loads(line) for line in lines]
    assert len(entries) == 1  # the traceback stays inside its one line
    entry = entries[0]
    assert set(entry) == {"time", "level", "logger", "message", "request_id", "exception"}
    assert entry["level"] == "ERROR" and entry["logger"] == "apps.api"
    assert entry["request_id"] == response["X-Request-Id"]
    assert "Traceback" in entry["exception"]
    assert entry["time"].endswith("+00:00")


def test_log_format_json_selects_the_json_formatter(settings):
    import subprocess
    import sys

    code = "import django, logging; django.setup(); logging.getLogger('apps.x').warning('hi \"there\"')"
    env = {"DJANGO_SETTINGS_MODULE": "config.settings", "LOG_FORMAT": "json", "PATH": "/usr/bin:/bin"}
    import os

    env.update({k: v for k, v in os.environ.items() if k in ("DATABASE_URL", "REDIS_URL", "HOME")})
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True, cwd=settings.BASE_DIR
    )
    entry = json.loads(out.stderr.strip().splitlines()[-1])
    assert entry["message"] == 'hi "there"' and entry["level"] == "WARNING" and entry["request_id"] is None
