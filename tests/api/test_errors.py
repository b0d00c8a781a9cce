"""The error envelope and codes, request ids, routing edge cases."""

import pytest
from rest_framework.test import APIClient

from apps.contacts.models import Contact

from .conftest import PROBES

pytestmark = pytest.mark.urls("tests.api.urls_for_tests")

NOT_FOUND = {"error": "Not Found", "message": "No route serves this path.", "code": "NOT_FOUND"}


@pytest.mark.parametrize("method", ["get", "post", "patch", "put", "delete", "options", "head"])
@pytest.mark.parametrize(
    "path", ["/v1/platform/unknown", "/v1/platform/unknown/deep/path", "/v1/nothing", "/v1", "/v1/"]
)
def test_unknown_route_is_json_404_for_any_method(db, method, path):
    client = APIClient(enforce_csrf_checks=True)  # a real client has no CSRF token; the 404 must still be JSON
    response = getattr(client, method)(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response["X-Request-Id"]
    if method != "head":
        assert response.json() == NOT_FOUND


def test_unknown_route_with_credential_is_404_too(api):
    response = api.post("/v1/platform/unknown", {"a": 1}, format="json")
    assert response.status_code == 404
    assert response.json() == NOT_FOUND


def test_trailing_slash_is_404_not_redirect(api):
    for path in ("/v1/platform/me/", f"{PROBES}/"):
        response = api.get(path)
        assert response.status_code == 404
        assert response.json()["code"] == "NOT_FOUND"
        assert "Location" not in response


def test_method_not_allowed_has_allow_header(api):
    response = api.post("/v1/platform/me", {}, format="json")
    assert response.status_code == 405
    assert response.json() == {
        "error": "Method Not Allowed",
        "message": "The method is not allowed on this path.",
        "code": "METHOD_NOT_ALLOWED",
    }
    assert response["Allow"] == "GET, HEAD"
    put = api.put(f"{PROBES}/1", {}, format="json")
    assert put.status_code == 405
    assert put["Allow"] == "GET, PATCH, HEAD"
    options = api.options("/v1/platform/me")
    assert options.status_code == 405


def test_unsupported_media_type(api):
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
        response = api.generic("POST", PROBES, "firstName=Zoe", content_type=content_type)
        assert response.status_code == 415, content_type
        assert response.json() == {
            "error": "Unsupported Media Type",
            "message": "Request bodies must be JSON (application/json).",
            "code": "UNSUPPORTED_MEDIA_TYPE",
        }
    assert not Contact.objects.exists()


def test_body_without_content_type_is_415(api):
    response = api.generic("POST", PROBES, b'{"firstName": "Zoe"}', content_type="")
    assert response.status_code == 415


def test_non_json_body_on_a_verb_that_ignores_its_body_is_415(api, contact):
    response = api.post(f"{PROBES}/{contact.id}/cancel", "reason", content_type="text/plain")
    assert response.status_code == 415


def test_empty_body_without_content_type_is_fine_on_a_verb(api, contact):
    response = api.generic("POST", f"{PROBES}/{contact.id}/cancel", b"", content_type="")
    assert response.status_code == 200


def test_json_with_charset_is_accepted(api):
    response = api.generic("POST", PROBES, b'{"firstName": "Zoe"}', content_type="application/json; charset=utf-8")
    assert response.status_code == 201


@pytest.mark.parametrize("body", [b"{", b'{"firstName": }', b"\xff\xfe", b"{'a': 1}"])
def test_invalid_json(api, body):
    response = api.generic("POST", PROBES, body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "INVALID_JSON"
    assert response.json()["error"] == "Bad Request"


def test_validation_errors_list_fields(api):
    response = api.post(PROBES, {"firstName": "x" * 121, "sleep": "soon"}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "VALIDATION_ERROR"
    assert set(body["details"]["fields"]) == {"firstName", "sleep"}
    assert all(isinstance(m, str) for msgs in body["details"]["fields"].values() for m in msgs)


def test_internal_error_hides_the_trace_and_repeats_the_request_id(api):
    response = api.get("/v1/platform/_test/boom")
    assert response.status_code == 500
    body = response.json()
    assert body == {
        "error": "Internal Server Error",
        "message": "An unexpected error occurred.",
        "code": "INTERNAL_ERROR",
        "details": {"requestId": response["X-Request-Id"]},
    }
    assert b"secret internal detail" not in response.content
    assert b"Traceback" not in response.content


def test_internal_error_keeps_an_incoming_request_id_from_a_trusted_proxy(api, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    response = api.get("/v1/platform/_test/boom", HTTP_X_REQUEST_ID="trace-123", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert response["X-Request-Id"] == "trace-123"
    assert response.json()["details"]["requestId"] == "trace-123"


def test_unsafe_incoming_request_id_is_replaced(api):
    response = api.get("/v1/platform/me", HTTP_X_REQUEST_ID="bad id\nwith newline")
    assert response["X-Request-Id"] != "bad id\nwith newline"
    assert len(response["X-Request-Id"]) == 32


def test_request_id_on_every_response(api, db):
    responses = [
        api.get("/v1/platform/me"),
        APIClient().get("/v1/platform/me"),
        api.get("/v1/platform/nope"),
        api.post("/v1/platform/me", {}, format="json"),
        api.get("/v1/openapi.json"),
    ]
    ids = [r["X-Request-Id"] for r in responses]
    assert all(ids) and len(set(ids)) == len(ids)


@pytest.mark.parametrize("pk", ["9223372036854775807", "9223372036854775808", "99999999999999999999999999"])
def test_huge_id_in_path_is_404(api, pk):
    for response in (api.get(f"{PROBES}/{pk}"), api.patch(f"{PROBES}/{pk}", {}, format="json")):
        assert response.status_code == 404
        assert response.json()["code"] == "NOT_FOUND"
    response = api.post(f"{PROBES}/{pk}/cancel")
    assert response.status_code == 404


def test_non_numeric_id_is_404(api):
    assert api.get(f"{PROBES}/abc").status_code == 404
    assert api.get(f"{PROBES}/-1").status_code == 404


def test_other_organizations_object_is_404_like_a_missing_one(api, other_organization):
    foreign = Contact.objects.create(organization=other_organization, first_name="Eve")
    response = api.get(f"{PROBES}/{foreign.id}")
    missing = api.get(f"{PROBES}/{foreign.id + 1000}")
    assert response.status_code == missing.status_code == 404
    assert response.json() == missing.json()


def test_options_on_resource_paths_is_405_with_allow(client_for, club, area):
    """OPTIONS is not offered anywhere (no CORS, no metadata): 405 before the scope check, like any other method."""
    no_scope = client_for("contacts:read")
    for path, allow in (
        ("/v1/platform/clubs", "GET, HEAD"),
        (f"/v1/platform/clubs/{club.slug}", "GET, HEAD"),
        ("/v1/platform/areas", "GET, POST, HEAD"),
        (f"/v1/platform/areas/{area.id}", "GET, PATCH, HEAD"),
        ("/v1/platform/organization", "GET, PATCH, HEAD"),
    ):
        response = no_scope.options(path)
        assert response.status_code == 405, (path, response.content)
        assert response.json() == {
            "error": "Method Not Allowed",
            "message": "The method is not allowed on this path.",
            "code": "METHOD_NOT_ALLOWED",
        }
        assert response["Allow"] == allow, path
