"""Malformed and oversized requests to the OAuth endpoints get their RFC error body (JSON, never HTML, never a 500)
and write nothing."""

import json

import pytest
from django.test import Client as HttpClient

from apps.oauth.models import AccessToken, Client, Grant

from .conftest import REDIRECT_URI

pytestmark = pytest.mark.django_db

REGISTER, TOKEN, REVOKE = "/v1/mcp/oauth/register", "/v1/mcp/oauth/token", "/v1/mcp/oauth/revoke"


def post(path, body, content_type="application/json"):
    data = json.dumps(body) if content_type == "application/json" and not isinstance(body, (str, bytes)) else body
    return HttpClient().post(path, data, content_type=content_type)


def assert_rfc_error(response, status, error):
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["error"] == error
    assert isinstance(body["error_description"], str) and body["error_description"]


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"redirect_uris": [f"https://app.example/cb/{i}" for i in range(1000)]}, "invalid_redirect_uri"),
        ({}, "invalid_redirect_uri"),
        ({"redirect_uris": []}, "invalid_redirect_uri"),
        ({"redirect_uris": "not a uri"}, "invalid_redirect_uri"),
        ({"redirect_uris": [42]}, "invalid_redirect_uri"),
        ({"redirect_uris": ["javascript:alert(1)"]}, "invalid_redirect_uri"),
        ({"redirect_uris": ["https://app.example/cb#frag"]}, "invalid_redirect_uri"),
        ({"redirect_uris": ["http://app.example/cb"]}, "invalid_redirect_uri"),
        ({"redirect_uris": ["com.example.app:/cb"]}, "invalid_redirect_uri"),  # web clients: no custom schemes
        ({"redirect_uris": ["https://user:pw@app.example/cb"]}, "invalid_redirect_uri"),
        ({"redirect_uris": ["https://app.example/\x00"]}, "invalid_redirect_uri"),
        ({"redirect_uris": ["https://a" + "b" * 3000 + ".example/cb"]}, "invalid_redirect_uri"),
        ({"redirect_uris": [REDIRECT_URI], "grant_types": ["password"]}, "invalid_client_metadata"),
        ({"redirect_uris": [REDIRECT_URI], "grant_types": ["implicit"]}, "invalid_client_metadata"),
        ({"redirect_uris": [REDIRECT_URI], "response_types": ["token"]}, "invalid_client_metadata"),
        ({"redirect_uris": [REDIRECT_URI], "token_endpoint_auth_method": "private_key_jwt"}, "invalid_client_metadata"),
        ({"redirect_uris": [REDIRECT_URI], "application_type": "desktop"}, "invalid_client_metadata"),
        ({"redirect_uris": [REDIRECT_URI], "client_name": {"en": "x"}}, "invalid_client_metadata"),
        ({"redirect_uris": [REDIRECT_URI], "client_name": "x" * 500}, "invalid_client_metadata"),
        ({"redirect_uris": [REDIRECT_URI], "scope": "everything:please"}, "invalid_client_metadata"),
        ([1, 2, 3], "invalid_client_metadata"),
        ("just a string", "invalid_client_metadata"),
    ],
)
def test_bad_registrations_are_refused(body, error):
    assert_rfc_error(post(REGISTER, body), 400, error)
    assert Client.objects.count() == 0


@pytest.mark.parametrize(
    ("data", "content_type"),
    [
        ("{not json", "application/json"),
        ('{"redirect_uris": ["https://a.example/cb"], "client_name": "\\ud800"}', "application/json"),
        (b"\xff\xfe\x00", "application/json"),
        ("<client/>", "application/xml"),
        ("", ""),
        ("redirect_uris=https%3A%2F%2Fa.example%2Fcb", "text/plain"),
    ],
)
def test_unreadable_registration_bodies_are_refused(data, content_type):
    response = HttpClient().post(REGISTER, data, content_type=content_type)
    assert_rfc_error(response, 400, "invalid_client_metadata")
    assert Client.objects.count() == 0


def test_a_10_mb_registration_is_refused_before_it_is_read():
    body = json.dumps({"redirect_uris": [REDIRECT_URI], "client_name": "x" * (10 * 1024 * 1024)})
    assert_rfc_error(post(REGISTER, body), 413, "invalid_client_metadata")
    assert Client.objects.count() == 0


def test_a_form_registration_works():
    response = post(
        REGISTER,
        "redirect_uris=https%3A%2F%2Fa.example%2Fcb&redirect_uris=http%3A%2F%2F127.0.0.1%2Fcb&client_name=Form+client",
        "application/x-www-form-urlencoded",
    )
    assert response.status_code == 201
    assert response.json()["redirect_uris"] == ["https://a.example/cb", "http://127.0.0.1/cb"]
    assert "client_secret" not in response.json()


def test_get_on_the_endpoints_is_405_json():
    for path in (REGISTER, TOKEN, REVOKE):
        response = HttpClient().get(path)
        assert response.status_code == 405
        assert response["Allow"] == "POST"
        assert "error" in response.json()


@pytest.mark.parametrize(
    ("data", "content_type", "error"),
    [
        (
            "grant_type=password&username=a&password=b&client_id=x",
            "application/x-www-form-urlencoded",
            "unsupported_grant_type",
        ),
        ("grant_type=client_credentials&client_id=x", "application/x-www-form-urlencoded", "unsupported_grant_type"),
        ("code=abc&client_id=x", "application/x-www-form-urlencoded", "invalid_request"),
        (
            "grant_type=authorization_code&grant_type=refresh_token",
            "application/x-www-form-urlencoded",
            "invalid_request",
        ),
        (
            "grant_type=refresh_token&refresh_token=%00&client_id=x",
            "application/x-www-form-urlencoded",
            "invalid_request",
        ),
        ("{", "application/json", "invalid_request"),
        ('["grant_type"]', "application/json", "invalid_request"),
        ('{"grant_type": ["authorization_code"]}', "application/json", "invalid_request"),
        ('{"grant_type": "refresh_token", "refresh_token": {"a": 1}}', "application/json", "invalid_request"),
        ("grant_type=authorization_code", "text/plain", "invalid_request"),
        # a lone surrogate and NaN, which json.loads let through: the surrogate was a 500 (issue 20, item 3)
        (
            '{"grant_type": "refresh_token", "refresh_token": "\\ud800", "client_id": "x"}',
            "application/json",
            "invalid_request",
        ),
        ('{"grant_type": "refresh_token", "refresh_token": NaN}', "application/json", "invalid_request"),
        (
            "grant_type=refresh_token&refresh_token=" + "a" * 5000,
            "application/x-www-form-urlencoded",
            "invalid_request",
        ),
    ],
)
def test_bad_token_requests_get_rfc_errors(data, content_type, error):
    response = HttpClient().post(TOKEN, data, content_type=content_type)
    assert response.status_code in (400, 401), response.content
    assert response.json()["error"] == error
    assert response.json()["error_description"]
    assert AccessToken.objects.count() == 0 and Grant.objects.count() == 0


@pytest.mark.parametrize("error_status", [(401, "invalid_client")])
def test_unknown_clients_and_codes(register, error_status):
    status, error = error_status
    unknown_client = HttpClient().post(
        TOKEN,
        "grant_type=authorization_code&code=abc&client_id=nope&code_verifier="
        + "a" * 43
        + f"&redirect_uri={REDIRECT_URI}",
        content_type="application/x-www-form-urlencoded",
    )
    assert (unknown_client.status_code, unknown_client.json()["error"]) == (status, error)
    client_id = register()["client_id"]
    unknown_code = HttpClient().post(
        TOKEN,
        f"grant_type=authorization_code&code=abc&client_id={client_id}"
        f"&code_verifier={'a' * 43}&redirect_uri={REDIRECT_URI}",
        content_type="application/x-www-form-urlencoded",
    )
    assert (unknown_code.status_code, unknown_code.json()["error"]) == (400, "invalid_grant")
    unknown_refresh = HttpClient().post(
        TOKEN,
        f"grant_type=refresh_token&refresh_token=gpr_nope&client_id={client_id}",
        content_type="application/x-www-form-urlencoded",
    )
    assert (unknown_refresh.status_code, unknown_refresh.json()["error"]) == (400, "invalid_grant")


def test_a_10_mb_token_request_is_refused():
    response = HttpClient().post(
        TOKEN, "grant_type=" + "a" * (10 * 1024 * 1024), content_type="application/x-www-form-urlencoded"
    )
    assert_rfc_error(response, 413, "invalid_request")


def test_the_endpoints_are_rate_limited_per_address(settings):
    settings.RATE_LIMIT_MULTIPLIER = 0.1  # 2 per window
    statuses = [HttpClient().post(TOKEN, "{", content_type="application/json").status_code for _ in range(3)]
    assert statuses == [400, 400, 429]
    limited = HttpClient().post(REGISTER, "{}", content_type="application/json")
    assert_rfc_error(limited, 429, "temporarily_unavailable")
    assert int(limited["Retry-After"]) > 0


@pytest.mark.parametrize(
    "query",
    [
        "",
        "response_type=code",
        "client_id=" + "x" * 9000,
        "response_type=token&client_id=x",
    ],
)
def test_malformed_authorization_requests_get_an_error_page(query):
    response = HttpClient().get(f"/oauth/authorize?{query}")
    assert response.status_code == 400
    assert "cannot be completed" in response.content.decode()


def test_a_nul_character_is_a_404_like_on_every_public_page():
    assert HttpClient().get("/oauth/authorize?client_id=%00&response_type=code").status_code == 404


def test_the_authorize_endpoint_refuses_other_methods():
    assert HttpClient().put("/oauth/authorize").status_code == 405


def test_browser_based_clients_may_call_the_endpoints_cross_origin():
    for path in (REGISTER, TOKEN, REVOKE):
        preflight = HttpClient().options(
            path, HTTP_ORIGIN="https://inspector.example", HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST"
        )
        assert preflight.status_code == 204
        assert preflight["Access-Control-Allow-Origin"] == "*"
        assert "POST" in preflight["Access-Control-Allow-Methods"]
        assert "Content-Type" in preflight["Access-Control-Allow-Headers"]
    answer = HttpClient().post(REGISTER, "{", content_type="application/json", HTTP_ORIGIN="https://inspector.example")
    assert answer["Access-Control-Allow-Origin"] == "*"
