"""Input built to crash a walker, a parser or a column: each is a 4xx in the envelope, never a 500."""

import pytest
from rest_framework.test import APIClient

from apps.api.models import IdempotencyRecord
from apps.api.parsers import MAX_JSON_DEPTH
from apps.contacts.models import Contact

from .conftest import PROBES

pytestmark = pytest.mark.urls("tests.api.urls_for_tests")


def nested(depth: int, bottom: str = '"\\u0000"') -> str:
    return "[" * depth + bottom + "]" * depth


def post_raw(client, body: str, **extra):
    return client.generic("POST", PROBES, body.encode(), content_type="application/json", **extra)


def assert_envelope(response, status: int, code: str):
    assert response.status_code == status, response.content[:300]
    body = response.json()
    assert body["code"] == code
    assert set(body) <= {"error", "message", "code", "details"}
    return body


@pytest.mark.parametrize("body", ["[]", "5", '"x"', "[{}]", "true"])
def test_a_body_that_is_json_but_not_an_object_is_400(api, body):
    fields = assert_envelope(post_raw(api, body), 400, "VALIDATION_ERROR")["details"]["fields"]
    assert fields == {"nonFieldErrors": ["The request body must be a JSON object."]}


def test_an_optional_body_that_is_an_array_is_400_and_the_verb_does_not_run(api, contact):
    """`request.data or {}` took `[]` for "no body": the contact was archived (issue 20, item 3)."""
    path = f"/v1/platform/contacts/{contact.id}/archive"
    assert_envelope(api.generic("POST", path, b"[]", content_type="application/json"), 400, "VALIDATION_ERROR")
    contact.refresh_from_db()
    assert contact.status == "active"
    assert api.generic("POST", path, b"null", content_type="application/json").status_code == 200  # no body


@pytest.mark.parametrize("depth", [1000, 100_000])
def test_deep_array_with_a_nul_at_the_bottom_is_400(api, depth):
    assert_envelope(post_raw(api, nested(depth)), 400, "INVALID_JSON")


@pytest.mark.parametrize("depth", [1000, 100_000])
def test_deep_object_as_a_field_value_is_400(api, depth):
    body = '{"firstName": "Zoe", "meta": ' + '{"a": ' * depth + '"\\u0000"' + "}" * depth + "}"
    assert_envelope(post_raw(api, body), 400, "INVALID_JSON")


def test_deep_body_with_an_idempotency_key_is_400_and_claims_nothing(api):
    assert_envelope(post_raw(api, nested(300, "1"), HTTP_IDEMPOTENCY_KEY="deep"), 400, "INVALID_JSON")
    assert not IdempotencyRecord.objects.exists()


def test_one_level_too_deep_is_400_naming_the_limit(api):
    body = '{"firstName": "Zoe", "meta": ' + nested(MAX_JSON_DEPTH, "1") + "}"
    message = assert_envelope(post_raw(api, body), 400, "INVALID_JSON")["message"]
    assert str(MAX_JSON_DEPTH) in message


def test_the_deepest_allowed_body_is_served(api):
    body = '{"firstName": "Zoe", "meta": ' + nested(MAX_JSON_DEPTH - 1, "1") + "}"
    assert post_raw(api, body).status_code == 201
    assert Contact.objects.filter(first_name="Zoe").exists()


def test_nul_inside_an_allowed_nesting_still_names_its_path(api):
    body = '{"firstName": "Zoe", "meta": ' + nested(50, '"a\\u0000"') + "}"
    fields = assert_envelope(post_raw(api, body), 400, "VALIDATION_ERROR")["details"]["fields"]
    assert list(fields) == ["meta" + ".0" * 50]


def test_nul_in_an_object_key_and_in_a_later_value_keep_document_order(api):
    body = '{"a\\u0000": 1, "firstName": "Zoe", "z": ["ok", "b\\u0000"]}'
    fields = assert_envelope(post_raw(api, body), 400, "VALIDATION_ERROR")["details"]["fields"]
    assert list(fields) == ["a\\u0000", "z.1"]


def test_many_brackets_at_a_shallow_depth_are_fine(api):
    body = '{"firstName": "Zoe", "meta": [' + ",".join(["[{}]"] * 500) + "]}"
    assert post_raw(api, body).status_code == 201


def test_more_query_parameters_than_django_parses_is_400(api):
    query = "&".join(f"p{i}=1" for i in range(1001))
    body = assert_envelope(api.get(f"/v1/platform/contacts?{query}"), 400, "VALIDATION_ERROR")
    assert body["details"]["fields"] == {"nonFieldErrors": ["At most 1000 query parameters are allowed."]}


def test_the_most_query_parameters_django_parses_are_fine(api):
    query = "&".join(f"p{i}=1" for i in range(1000))
    assert api.get(f"/v1/platform/contacts?{query}").status_code == 200


@pytest.mark.parametrize("prefix", ["aaaaaaaaaa\x00a", "aaaaaaaaaa%a", "éaaaaaaaaaaa"])
def test_an_api_key_prefix_outside_the_token_alphabet_is_401(db, prefix, django_assert_num_queries):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer gpk_{prefix}_secret")
    with django_assert_num_queries(0):
        response = client.get("/v1/platform/me")
    assert_envelope(response, 401, "UNAUTHENTICATED")


@pytest.mark.parametrize(
    "path",
    [
        "/v1/platform/contacts/" + "9" * 5000,
        "/v1/platform/channel-bookings/partner/" + "x" * 5000,
        "/v1/platform/" + "a" * 20000,
    ],
)
def test_very_long_paths_are_404(api, path):
    assert_envelope(api.get(path), 404, "NOT_FOUND")


@pytest.mark.parametrize(
    ("query", "field"),
    [("limit=" + "9" * 5000, "limit"), ("offset=" + "9" * 5000, "offset"), ("ordering=" + "a" * 5000, "ordering")],
)
def test_very_long_query_values_are_400_on_their_parameter(api, query, field):
    body = assert_envelope(api.get(f"/v1/platform/contacts?{query}"), 400, "VALIDATION_ERROR")
    assert field in body["details"]["fields"]


@pytest.mark.parametrize("number", [b"1e999", b"-1e999", b"123456789012345678901234567890"])
def test_numbers_beyond_every_range_are_4xx(api, number):
    body = b'{"firstName": "Zoe", "sleep": ' + number + b"}"
    response = api.generic("POST", PROBES, body, content_type="application/json")
    assert response.status_code == 400, response.content
