"""Inputs schemathesis turned into 500s or into answers its document did not describe; each is a clear, documented
4xx now. Since issue 20 the fuzzing runs in `make test` (tests/test_contract_fuzz.py); what it found is below."""

import datetime as dt
from decimal import Decimal

import pytest
from django.test import Client
from rest_framework import serializers

from apps.api.exceptions import _flatten_drf_errors
from apps.api.fields import StrictDateTimeField
from apps.api.renderers import dumps

from .conftest import PROBES

pytestmark = pytest.mark.urls("tests.api.urls_for_tests")


def fields_of(response):
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "VALIDATION_ERROR"
    return body["details"]["fields"]


@pytest.mark.parametrize("offset", ["4427726320294907871232", str(2**63)])
def test_offset_beyond_64_bits_is_400(api, offset):
    assert "offset" in fields_of(api.get(f"{PROBES}?offset={offset}"))


def test_largest_offset_is_an_empty_page(api):
    response = api.get(f"{PROBES}?offset={2**63 - 1}&limit=99999999999999999999999")
    assert response.status_code == 200
    assert response.json() == {"data": [], "total": 0, "limit": 200, "offset": 2**63 - 1}


def test_nul_in_a_query_parameter_is_400_on_that_parameter(api):
    assert fields_of(api.get(f"{PROBES}?q=a%00b")) == {"q": ["Must not contain NUL (\\u0000) characters."]}


def test_nul_in_a_real_list_filter_is_400(api):
    assert "q" in fields_of(api.get("/v1/platform/contacts?q=%00"))


def test_nul_in_a_body_string_is_400_on_its_path(api):
    body = '{"firstName": "Ana", "meta": {"tags": ["ok", "bad\\u0000"]}}'
    response = api.post(PROBES, body, content_type="application/json")
    assert fields_of(response) == {"meta.tags.1": ["Must not contain NUL (\\u0000) characters."]}


def test_an_escaped_backslash_before_u0000_is_not_a_nul(api):
    response = api.post(PROBES, '{"firstName": "a\\\\u0000"}', content_type="application/json")
    assert response.status_code == 201
    assert response.json()["firstName"] == "a\\u0000"


@pytest.mark.parametrize("value", ["9999-12-31", "0001-01-01", "1899-12-31"])
def test_date_filter_at_the_edge_of_the_calendar_is_400(api, value):
    response = api.get(f"/v1/platform/classes?endDate={value}")
    assert "endDate" in fields_of(response)
    response = api.get(f"/v1/platform/bookings?startDate={value}")
    assert "startDate" in fields_of(response)


@pytest.mark.parametrize("value", ["9999-12-31T23:30:00Z", "0001-01-01T00:00:00Z", "0001-01-01T00:00:00+01:00"])
def test_date_time_filter_at_the_edge_of_the_calendar_is_400(api, value):
    assert "startDate" in fields_of(api.get("/v1/platform/classes", {"startDate": value}))


@pytest.mark.parametrize("value", ["9999-12-31T23:30:00Z", "0001-01-01T00:00:00Z", "1899-12-31T23:59:59Z"])
def test_strict_date_time_field_refuses_instants_no_clock_can_hold(value):
    field = StrictDateTimeField()
    with pytest.raises(serializers.ValidationError):
        field.run_validation(value)
    assert field.run_validation("2031-03-04T09:00:00+01:00") == dt.datetime(2031, 3, 4, 8, 0, tzinfo=dt.UTC)


def test_integer_filter_beyond_64_bits_is_400(api):
    assert "clubId" in fields_of(api.get("/v1/platform/classes?clubId=99999999999999999999999"))


def test_nested_non_field_errors_name_the_nested_field():
    assert _flatten_drf_errors({"contact": {"non_field_errors": ["Bad."]}, "non_field_errors": ["Top."]}) == {
        "contact": ["Bad."],
        "nonFieldErrors": ["Top."],
    }


def test_renderer_writes_integers_beyond_64_bits():
    when = dt.datetime(2031, 1, 1, 10, tzinfo=dt.UTC)
    assert dumps({"n": 2**70, "at": when, "d": Decimal("1.5")}) == (
        b'{"n":1180591620717411303424,"at":"2031-01-01T10:00:00Z","d":1.5}'
    )


def test_tax_inclusive_rounds_half_up(organization):
    organization.default_tax_rate = Decimal("21.00")
    assert organization.tax_inclusive(Decimal("0.50")) == Decimal("0.61")


@pytest.mark.parametrize(
    ("method", "path", "parameter"),
    [
        ("get", "/v1/public/search/clubs?q=a%00b", "q"),
        ("get", "/v1/public/search/clubs?sport=padel&x%00=1", "x\\u0000"),
        ("get", "/v1/public/network/clubs/none?locale=%00", "locale"),
        ("post", "/v1/public/network/search/offers?q=%00", "q"),
    ],
)
def test_nul_in_a_public_marketplace_query_parameter_is_its_400_naming_it(db, method, path, parameter):
    """Was the JSON 404 of an unserved path, which the searches do not document."""
    response = getattr(Client(), method)(path)
    assert response.status_code == 400, response.content
    assert response.json() == {
        "error": "Invalid request",
        "details": {"issues": [{"path": parameter, "message": "Must not contain NUL (\\u0000) characters."}]},
    }
