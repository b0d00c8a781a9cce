"""The machine-readable description (API.md §5.22)."""

import pytest
import yaml
from django.conf import settings
from openapi_spec_validator import validate
from rest_framework.test import APIClient

from apps.api.scopes import ALL_SCOPES


@pytest.fixture(scope="module")
def schema(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        response = APIClient().get("/v1/openapi.json")
    assert response.status_code == 200
    return response.json()


def test_is_valid_openapi_3_0_0(schema):
    validate(schema)
    assert schema["openapi"] == "3.0.0"
    assert schema["info"]["version"] == "1.0.0"


def test_security_schemes(schema):
    schemes = schema["components"]["securitySchemes"]
    assert schemes["customerApiAuth"]["type"] == "http"
    assert schemes["customerApiAuth"]["scheme"] == "bearer"
    flow = schemes["platformOAuth"]["flows"]["authorizationCode"]
    assert schemes["platformOAuth"]["type"] == "oauth2"
    assert flow["authorizationUrl"] == f"{settings.AUTH_URL}/oauth/authorize"
    assert flow["tokenUrl"] == f"{settings.BASE_URL}/v1/mcp/oauth/token"
    assert set(ALL_SCOPES) | {"*"} <= set(flow["scopes"])


def platform_operations(schema):
    for path, item in schema["paths"].items():
        if not path.startswith("/v1/platform/"):
            continue
        for method, operation in item.items():
            if method in ("get", "post", "patch", "put", "delete"):
                yield path, method, operation


def test_every_platform_operation_states_scope_and_security(schema):
    operations = list(platform_operations(schema))
    assert ("/v1/platform/me", "get") in {(p, m) for p, m, _ in operations}
    for path, method, operation in operations:
        assert "x-required-scope" in operation, (path, method)
        assert operation.get("security"), (path, method)
        assert {"customerApiAuth": []} in operation["security"]
        assert operation.get("operationId"), (path, method)
        assert "x-rate-limit-bucket" in operation
        for status in ("401", "403", "429"):
            assert status in operation["responses"], (path, method, status)
        scope = operation["x-required-scope"]
        if scope is not None:
            assert scope in ALL_SCOPES
            oauth = [s["platformOAuth"] for s in operation["security"] if "platformOAuth" in s]
            assert [scope] in oauth


def test_operation_ids_are_unique_and_snake_case(schema):
    ids = [op["operationId"] for _, _, op in platform_operations(schema)]
    assert len(ids) == len(set(ids))
    assert all(i == i.lower() and " " not in i and "-" not in i for i in ids)


def test_me_operation(schema):
    operation = schema["paths"]["/v1/platform/me"]["get"]
    assert operation["operationId"] == "me_get"
    assert operation["x-required-scope"] is None
    assert "200" in operation["responses"]


def test_yaml_serves_the_same_document(db):
    response = APIClient().get("/v1/openapi.yaml")
    assert response.status_code == 200
    document = yaml.safe_load(response.content)
    assert document["openapi"] == "3.0.0"
    assert "/v1/platform/me" in document["paths"]


def test_docs_page_renders(db):
    response = APIClient().get("/v1/docs")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert b"/v1/openapi.json" in response.content
