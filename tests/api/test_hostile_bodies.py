"""Bodies built to crash a walker or a column: each is a 4xx in the envelope, never a 500."""

import pytest

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
