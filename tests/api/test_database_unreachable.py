"""A lost database connection is a 503 with `Retry-After` on every surface (the API's envelope, MCP, the marketplace
API's short body, a short page on the websites), not a 500; a query's own failure stays a 500. The same under a
real gunicorn with PostgreSQL cut away: tests/faults/test_database_outage.py."""

import logging

import psycopg
import pytest
from django.db import OperationalError, connection
from rest_framework.test import APIClient

from apps.api.exceptions import ServiceUnavailable

UNAVAILABLE = {
    "error": "Service Unavailable",
    "message": ServiceUnavailable.default_message,
    "code": "SERVICE_UNAVAILABLE",
}


def failing_with(cause: Exception):
    """Every query fails as Django reports `cause` (the driver's error) from a cursor."""

    def wrapper(execute, sql, params, many, context):
        raise OperationalError(str(cause)) from cause

    return connection.execute_wrapper(wrapper)


LOST = psycopg.OperationalError("server closed the connection unexpectedly")


@pytest.fixture
def anonymous():
    return APIClient(raise_request_exception=False)  # Django's own 500 path, as a server runs it


def assert_unavailable(response):
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response["X-Request-Id"]


@pytest.mark.parametrize(
    "cause",
    [LOST, psycopg.errors.AdminShutdown("terminating connection due to administrator command")],
    ids=["connection-lost", "server-shutting-down"],
)
def test_platform_api_answers_503_in_the_envelope(api, cause, caplog):
    with failing_with(cause), caplog.at_level(logging.ERROR, logger="apps.api"):
        response = api.get("/v1/platform/me")
    assert_unavailable(response)
    assert response.json() == UNAVAILABLE
    assert [r.message for r in caplog.records if r.name == "apps.api"] == [
        f"Database unreachable, answering 503: {OperationalError(str(cause))!r}"
    ]
    assert not [r for r in caplog.records if r.exc_info]  # one line, no trace: the cause is outside the process


def test_mcp_answers_503_in_the_envelope(make_token, anonymous):
    token = make_token("*")
    with failing_with(LOST):
        response = anonymous.post(
            "/mcp/admin",
            {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}},
            format="json",
            HTTP_AUTHORIZATION=f"Bearer {token}",
        )
    assert_unavailable(response)
    assert response.json() == UNAVAILABLE


def test_marketplace_api_answers_503_with_its_short_body(db, anonymous):
    with failing_with(LOST):
        response = anonymous.get("/v1/public/network/clubs/somewhere")
    assert_unavailable(response)
    assert response.json() == {"error": ServiceUnavailable.default_message}


def test_a_website_page_answers_503(db, anonymous):
    with failing_with(LOST):
        response = anonymous.get("/", HTTP_HOST="padel.sites.localhost")
    assert_unavailable(response)
    assert b"Temporarily unavailable" in response.content


def test_a_failing_query_is_still_a_500(api):
    with failing_with(psycopg.errors.QueryCanceled("canceling statement due to statement timeout")):
        response = api.get("/v1/platform/me")
    assert response.status_code == 500
    assert response.json()["code"] == "INTERNAL_ERROR"
