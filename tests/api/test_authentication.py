"""Credential lifecycle through HTTP: hashed at rest, 401s, revocation, expiry, last use."""

import datetime as dt
import hashlib
import hmac

import pytest
from django.conf import settings
from django.db import connection
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from apps.organizations import api_keys
from apps.organizations.models import ApiKey
from apps.organizations.services import revoke_api_keys

from .conftest import bearer

ME = "/v1/platform/me"


def assert_unauthenticated(response):
    assert response.status_code == 401, response.content
    body = response.json()
    assert body["code"] == "UNAUTHENTICATED"
    assert body["error"] == "Unauthorized"
    assert set(body) <= {"error", "message", "code"}
    assert response["WWW-Authenticate"] == "Bearer"
    assert response["X-Request-Id"]
    assert not any(h.lower().startswith(("x-ratelimit", "ratelimit")) for h in response.headers)


def test_token_works_and_is_hashed_at_rest(issue_key, organization):
    key, token = issue_key("classes:read")
    assert bearer(token).get(ME).status_code == 200
    stored = ApiKey.objects.get(pk=key.pk)
    expected = hmac.new(settings.API_KEY_PEPPER.encode(), token.encode(), hashlib.sha256).hexdigest()
    assert stored.token_hash == expected
    secret = token.split("_", 2)[2]  # gpk_<prefix>_<secret>; the secret itself may contain "_"
    for value in model_to_dict(stored).values():
        assert token not in str(value)
        assert secret not in str(value)
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM organizations_apikey WHERE id = %s", [key.pk])
        row = cursor.fetchone()
    assert not any(secret in str(col) for col in row)


@pytest.mark.parametrize(
    "header",
    [
        None,
        "",
        "Bearer",
        "Bearer   ",
        "Basic dXNlcjpwYXNz",
        "Token gpk_abcdefabcdef_secret",
        "Bearer not-a-key",
        "Bearer gpk_short_secret",
        "Bearer gpk_abcdefabcdef_unknownsecret",
    ],
)
def test_missing_or_malformed_or_unknown_credential(db, header):
    client = APIClient()
    if header is not None:
        client.credentials(HTTP_AUTHORIZATION=header)
    assert_unauthenticated(client.get(ME))


def test_right_prefix_wrong_secret(issue_key):
    _, token = issue_key()
    prefix = token.rsplit("_", 1)[0]
    assert_unauthenticated(bearer(f"{prefix}_wrongsecret").get(ME))


def test_scheme_is_case_insensitive(issue_key):
    _, token = issue_key()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"bearer {token}")
    assert client.get(ME).status_code == 200


def test_revocation_is_effective_on_the_next_request(issue_key):
    key, token = issue_key()
    client = bearer(token)
    assert client.get(ME).status_code == 200
    revoke_api_keys(ApiKey.objects.filter(pk=key.pk))
    assert_unauthenticated(client.get(ME))
    assert_unauthenticated(client.post("/v1/platform/me", {}, format="json"))


def test_expired_key(issue_key):
    _, token = issue_key(expires_at=timezone.now() - dt.timedelta(seconds=1))
    assert_unauthenticated(bearer(token).get(ME))


def test_expiry_is_effective_on_the_next_request(issue_key, monkeypatch):
    start = timezone.now()
    key, token = issue_key(expires_at=start + dt.timedelta(minutes=5))
    client = bearer(token)
    monkeypatch.setattr(api_keys.timezone, "now", lambda: start + dt.timedelta(minutes=4, seconds=59))
    assert client.get(ME).status_code == 200
    monkeypatch.setattr(api_keys.timezone, "now", lambda: start + dt.timedelta(minutes=5))
    assert_unauthenticated(client.get(ME))


def test_last_used_written_at_most_once_a_minute(issue_key, monkeypatch):
    key, token = issue_key()
    client = bearer(token)
    clock = {"now": timezone.now()}
    monkeypatch.setattr(api_keys.timezone, "now", lambda: clock["now"])
    first_use = clock["now"]

    with CaptureQueriesContext(connection) as first:
        assert client.get(ME).status_code == 200
    key.refresh_from_db()
    assert key.last_used_at == first_use
    assert any(q["sql"].startswith("UPDATE") for q in first.captured_queries)

    clock["now"] = first_use + dt.timedelta(seconds=59)
    with CaptureQueriesContext(connection) as within:
        assert client.get(ME).status_code == 200
    key.refresh_from_db()
    assert key.last_used_at == first_use
    assert not any(q["sql"].startswith("UPDATE") for q in within.captured_queries)
    assert len(within) == len(first) - 1

    clock["now"] = first_use + dt.timedelta(seconds=61)
    assert client.get(ME).status_code == 200
    key.refresh_from_db()
    assert key.last_used_at == clock["now"]


def test_me_costs_one_query_when_last_use_is_fresh(issue_key):
    _, token = issue_key()
    client = bearer(token)
    client.get(ME)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(ME).status_code == 200
    assert len(queries) == 1, [q["sql"] for q in queries.captured_queries]


def test_key_of_other_organization_sees_its_own_organization(issue_key, other_organization):
    _, token = issue_key(organization_=other_organization)
    body = bearer(token).get(ME).json()
    assert body["organization"] == {"id": other_organization.id, "currency": "USD"}


def test_key_lookup_builds_the_same_instances_as_the_orm(issue_key, organization, django_assert_num_queries):
    key, token = issue_key(["classes:read", "read"])
    with django_assert_num_queries(1):
        found = api_keys.KeyLookup.find(key.prefix)
        assert found.organization.offered_languages == ["en", "es"]
    orm = ApiKey.objects.select_related("organization").get(pk=key.pk)
    assert found.scopes == ["classes:read", "read"]
    assert {f.attname: getattr(found, f.attname) for f in ApiKey._meta.concrete_fields} == {
        f.attname: getattr(orm, f.attname) for f in ApiKey._meta.concrete_fields
    }
    assert {f.attname: getattr(found.organization, f.attname) for f in organization._meta.concrete_fields} == {
        f.attname: getattr(orm.organization, f.attname) for f in organization._meta.concrete_fields
    }
    assert api_keys.KeyLookup.find("000000000000") is None
