"""The tools and the Platform API are the same set of operations, read independently of the generator.

The router side is enumerated from Django's URL resolver (every DRF view under `/v1/platform/` and each action or
method it serves); the tool side resolves each tool's path to its view. The two sets must be equal: every
operation is a tool and every tool an operation, with nothing written per endpoint. That each tool accepts what its
REST endpoint accepts is checked on every real request of `tests/test_openapi_conformance.py`
(`tests/mcp/tool_arguments.py`).
"""

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from jsonschema import Draft202012Validator

from apps.api.permissions import required_scope_for
from apps.mcp.catalogue import catalogue, openapi_document, read_scope, tools_from_child, tools_from_document
from apps.mcp.dispatch import argument_errors
from tests.harness import all_cases

from .tool_arguments import tool_arguments

PLATFORM = "v1/platform/"
HTTP_METHODS = ("get", "post", "patch", "put", "delete")


def router_operations() -> set[tuple]:
    """(view class, action or method, HTTP method) of every Platform API route."""
    found = set()

    def walk(patterns, prefix):
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, route)
                continue
            if not isinstance(pattern, URLPattern) or not route.lstrip("^").startswith(PLATFORM):
                continue
            view = pattern.callback
            cls = getattr(view, "cls", None)
            if cls is None:
                continue
            actions = getattr(view, "actions", None)
            if actions:
                for method, action in actions.items():
                    if method in HTTP_METHODS:
                        found.add((cls, action, method))
            else:
                for method in HTTP_METHODS:
                    if hasattr(cls, method) and method in cls.http_method_names:
                        found.add((cls, method, method))

    walk(get_resolver().url_patterns, "")
    return found


def example_path(tool) -> str:
    path = tool.path
    for argument, name in tool.path_params.items():
        kind = tool.input_schema["properties"][argument].get("type")
        path = path.replace("{" + name + "}", "1" if kind == "integer" else "x1")
    return path


def tool_operations() -> dict[tuple, str]:
    operations = {}
    for tool in catalogue().tools:
        match = resolve(example_path(tool))
        cls = match.func.cls
        actions = getattr(match.func, "actions", None)
        method = tool.method.lower()
        action = actions[method] if actions else method
        operations[(cls, action, method)] = tool.name
    return operations


def test_every_platform_operation_is_a_tool_and_every_tool_an_operation(db):
    tools = tool_operations()
    routes = router_operations()
    assert len(tools) == len(catalogue().tools)  # no two tools name one operation
    missing = sorted(f"{cls.__name__}.{action} ({method.upper()})" for cls, action, method in routes - set(tools))
    extra = sorted(tools[op] for op in set(tools) - routes)
    assert not missing, f"operations without a tool: {missing}"
    assert not extra, f"tools without an operation: {extra}"


def test_each_tool_carries_its_operations_scope(db):
    for (cls, action, _method), name in tool_operations().items():
        tool = catalogue().by_name[name]
        declared = required_scope_for(cls, action)
        scope, any_of, all_of = read_scope(None if declared == "__none__" else declared)
        if isinstance(declared, str) and declared != "__none__":
            assert tool.scope == declared, name
            assert f"`{declared}`" in tool.description, name
        elif declared == "__none__":
            assert tool.scope is None and "Needs no scope" in tool.description, name
        else:
            assert set(declared) <= {s for s in tool.description.split("`")}, name


def test_every_schema_is_valid_json_schema_2020_12(db):
    for tool in catalogue().tools:
        Draft202012Validator.check_schema(tool.input_schema)
        Draft202012Validator.check_schema(tool.output_schema)
        assert tool.output_schema["type"] == "object"


def test_every_post_tool_takes_an_idempotency_key_and_only_those(db):
    for tool in catalogue().tools:
        assert ("idempotencyKey" in tool.input_schema["properties"]) == (tool.method == "POST"), tool.name


def test_hints_follow_the_method(db):
    for tool in catalogue().tools:
        hints = tool.annotations
        assert hints["readOnlyHint"] == (tool.method == "GET"), tool.name
        assert hints["openWorldHint"] is False
        if tool.method in ("DELETE", "PATCH"):
            assert hints["destructiveHint"] and hints["idempotentHint"], tool.name
        if tool.method == "GET":
            assert not hints["destructiveHint"] and hints["idempotentHint"], tool.name


def test_a_renamed_body_field_does_not_hide_the_path_parameter(db):
    """PATCH …/sections/{htmlId} can rename the section: the path names it, `bodyHtmlId` is the new value."""
    tool = catalogue().by_name["website_page_sections_update"]
    assert tool.body_params["bodyHtmlId"] == "htmlId"
    assert "htmlId" in tool.path_params


CASES_WITH_BODIES = [case for case in all_cases() if case.body]


@pytest.mark.parametrize("case", CASES_WITH_BODIES, ids=[case.id for case in CASES_WITH_BODIES])
def test_the_contract_cases_bodies_fit_their_tools(db, case):
    """The bodies of tests/*/cases.py that are complete requests are accepted by their tools as they are."""
    template = re.sub(r"\{[^}]+\}", "{}", case.path)
    tool = next(
        t for t in catalogue().tools if re.sub(r"\{[^}]+\}", "{}", t.path) == template and t.method == case.method
    )
    values = {name: 1 for name in tool.path_params.values()}
    arguments = tool_arguments(tool.name, values, {}, case.body)
    errors = argument_errors(tool, arguments)
    required = set(tool.input_schema.get("required", ())) - set(tool.path_params)
    if required - set(arguments):
        return  # a deliberately partial body (the contract only checks 401/403/404 with it)
    assert not errors, (tool.name, errors)


def test_no_argument_name_is_used_twice(db):
    for tool in catalogue().tools:
        names = list(tool.input_schema["properties"])
        assert len(names) == len(set(names))
        assert all(re.fullmatch(r"[A-Za-z][A-Za-z0-9]*", n) for n in names), (tool.name, names)


def test_the_child_process_builds_the_tools_of_the_served_document(caplog):
    """The catalogue is built by a child process (the web worker does not walk every view), tool for tool as here."""
    assert tools_from_child() == tools_from_document(openapi_document())
    assert "child process failed" not in caplog.text
