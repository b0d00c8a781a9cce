"""Every string a Platform API body stores has a documented maximum, and every free-form object its limits."""

import pytest
from rest_framework.test import APIClient

# Strings whose pattern fixes their length (`#RRGGBB`, `HH:MM`) or whose format is parsed, not stored as text.
SELF_BOUNDED_FORMATS = {"date", "date-time", "decimal"}


@pytest.fixture(scope="module")
def schema(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        return APIClient().get("/v1/openapi.json").json()


def _refs(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                yield value.rsplit("/", 1)[-1]
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def request_components(schema) -> dict:
    """Every component reachable from a Platform API request body."""
    components = schema["components"]["schemas"]
    pending = [
        name
        for path, item in schema["paths"].items()
        if path.startswith("/v1/platform/")
        for operation in item.values()
        if isinstance(operation, dict) and "requestBody" in operation
        for name in _refs(operation["requestBody"])
    ]
    found = {}
    while pending:
        name = pending.pop()
        if name not in found:
            found[name] = components[name]
            pending.extend(_refs(components[name]))
    return found


def _walk(node, path=""):
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from _walk(value, f"{path}.{key}")
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value, path)


def test_every_stored_string_in_a_request_body_has_a_max_length(schema):
    unbounded = [
        f"{name}{path}"
        for name, component in request_components(schema).items()
        for path, node in _walk(component)
        if node.get("type") == "string"
        and "maxLength" not in node
        and "enum" not in node
        and "pattern" not in node
        and node.get("format") not in SELF_BOUNDED_FORMATS
    ]
    assert unbounded == []


def test_every_free_form_object_in_a_request_body_states_its_limits(schema):
    unbounded = [
        f"{name}{path}"
        for name, component in request_components(schema).items()
        for path, node in _walk(component)
        if node.get("type") == "object"
        and "properties" not in node
        and node.get("enum") != [None]  # the "or null" branch of a nullable object: it holds nothing but null
        and "bytes as JSON" not in node.get("description", "")
        and not (isinstance(node.get("additionalProperties"), dict) and "maxLength" in node["additionalProperties"])
    ]
    assert unbounded == []
