"""What a REST request is as MCP tool arguments, so the REST tests' real requests can be fed to the tools.

`tests/test_openapi_conformance.py` calls `assert_tool_accepts` for every request the API answered with a 2xx: the
path values, the query and the JSON body, spelled as a model would spell them for the operation's tool (integers
as numbers, booleans as booleans, comma lists as arrays where the tool says array), must satisfy that tool's
`inputSchema`, and the body it answered must satisfy the tool's `outputSchema` (`assert_tool_output_fits`). Its
completeness check makes both hold for every operation.
"""

from functools import cache
from urllib.parse import parse_qsl

from jsonschema import Draft202012Validator

from apps.mcp.catalogue import catalogue
from apps.mcp.dispatch import argument_errors


def _typed(value, kind):
    if not isinstance(value, str):
        return value
    if kind == "integer" and value.lstrip("-").isdigit():
        return int(value)
    if kind == "number":
        try:
            return float(value)
        except ValueError:
            return value
    if kind == "boolean" and value in ("true", "false"):
        return value == "true"
    if kind == "array":
        return value.split(",")
    return value


def schema_type(schema: dict) -> str | None:
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    return kind


def tool_arguments(operation_id: str, path_values: dict, query: dict, body) -> dict:
    tool = catalogue().by_name[operation_id]
    properties = tool.input_schema["properties"]
    arguments = {}
    template_to_argument = {template: argument for argument, template in tool.path_params.items()}
    for name, value in path_values.items():
        argument = template_to_argument.get(name, name)
        arguments[argument] = _typed(str(value), schema_type(properties.get(argument, {})))
    for name, value in query.items():
        kind = tool.query_params.get(name) or schema_type(properties.get(name, {}))
        arguments[name] = _typed(value, kind)
    if isinstance(body, dict):
        field_to_argument = {field: argument for argument, field in tool.body_params.items()}
        for field, value in body.items():
            arguments[field_to_argument.get(field, field)] = value
    return arguments


def assert_tool_accepts(operation_id: str, path_values: dict, params: dict | None, query: str, body):
    """The tool of `operation_id` accepts, as arguments, a request its REST endpoint accepted."""
    values = dict(parse_qsl(query.lstrip("?"), keep_blank_values=True)) if query else {}
    values.update({k: v for k, v in (params or {}).items()})
    arguments = tool_arguments(operation_id, path_values, values, body)
    errors = argument_errors(catalogue().by_name[operation_id], arguments)
    assert not errors, f"the tool {operation_id} refuses what its REST endpoint accepted: {arguments} -> {errors}"


@cache
def _output_validator(operation_id: str) -> Draft202012Validator:
    return Draft202012Validator(catalogue().by_name[operation_id].output_schema)


def assert_tool_output_fits(operation_id: str, body):
    """The body a 2xx answer carried is valid `structuredContent` for the tool's `outputSchema` (clients such as the
    official SDK validate it and refuse a result that does not fit)."""
    errors = list(_output_validator(operation_id).iter_errors({} if body is None else body))
    assert not errors, f"{operation_id}: outputSchema refuses the real body: " + "; ".join(
        f"{'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message[:200]}" for e in errors[:5]
    )
