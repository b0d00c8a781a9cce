"""Every operation of the served OpenAPI document, for the tests generated over all of them (the isolation and scope
matrices of tests/matrices, the bad-input tests).

`platform_operations()` reads the document exactly as `/v1/openapi.json` serves it (drf-spectacular over the
routers), so a new endpoint is a new `Operation` here with nothing written by hand; `body_schema` is its request body
with every `$ref` inlined, `id_body_fields()` and `id_query_params()` the integer ids it names (`clubId`,
`players[].contactId`, `instructorIds`), and `example_body(operation, ids)` a body with every required field filled
(ids from the `ids(field_name)` callback), for a test to change one field of (`set_field`); `example_query` does the
same for the required query parameters. `contract_case(operation)` is the
operation's `EndpointCase` of tests/*/cases.py, whose `setup(organization)` makes the objects its path names.
"""

import copy
import re
from dataclasses import dataclass, field
from functools import cache

from apps.api.permissions import NO_SCOPE, AllOf
from apps.mcp.catalogue import openapi_document
from tests.harness import EndpointCase, all_cases

PLATFORM = "/v1/platform/"
HTTP_METHODS = ("get", "post", "patch", "put", "delete")
ID_NAME = re.compile(r"[a-z][A-Za-z]*Ids?$")


@cache
def document() -> dict:
    """The served OpenAPI document (generated once per test process)."""
    return openapi_document()


def inline(schema, depth=0):
    """`schema` with every `$ref` of the document's components inlined (a copy)."""
    components = document()["components"]["schemas"]
    if depth > 30:
        return {}
    if isinstance(schema, list):
        return [inline(item, depth + 1) for item in schema]
    if not isinstance(schema, dict):
        return schema
    if "$ref" in schema:
        resolved = inline(components[schema["$ref"].rsplit("/", 1)[-1]], depth + 1)
        return {**resolved, **{k: inline(v, depth + 1) for k, v in schema.items() if k != "$ref"}}
    return {key: inline(value, depth + 1) for key, value in schema.items()}


def _object_branch(schema: dict) -> dict:
    """The object shape of a schema that may be `oneOf`/`anyOf`/`allOf` of objects (the first object branch)."""
    for key in ("allOf", "oneOf", "anyOf"):
        for branch in schema.get(key, ()):
            if branch.get("type") == "object" or "properties" in branch:
                return branch
    return schema


@dataclass(frozen=True)
class Operation:
    method: str  # upper case
    path: str  # the document's template, `/v1/platform/classes/{id}`
    operation_id: str
    scope: object  # as `required_scopes` declares it: a str, a frozenset (any of), an AllOf, or NO_SCOPE
    path_params: dict = field(hash=False)  # name -> schema, in the template's order
    query_params: dict = field(hash=False)  # name -> schema
    required_query: tuple[str, ...]
    body_schema: dict | None = field(hash=False)  # inlined; None without a request body
    responses: dict = field(hash=False)

    @property
    def id(self) -> str:
        return f"{self.method} {self.path}"

    @property
    def scopes(self) -> tuple[str, ...]:
        """Every scope the requirement names (one, any of several, or all of several)."""
        if self.scope == NO_SCOPE:
            return ()
        return (self.scope,) if isinstance(self.scope, str) else tuple(sorted(self.scope))

    def id_query_params(self) -> list[str]:
        """Query parameters that name rows by integer id (`clubId`, `websiteId`)."""
        return [name for name, schema in self.query_params.items() if ID_NAME.match(name) and _is_ids(schema)]

    def id_body_fields(self) -> list[str]:
        """Body fields that name rows by integer id, nested ones spelled `players[].contactId`, `footer.clubId`."""
        return _id_fields(self.body_schema or {}, "")


def _is_ids(schema: dict) -> bool:
    if schema.get("type") == "array":
        schema = schema.get("items", {})
    return schema.get("type") == "integer"


def _id_fields(schema: dict, prefix: str, depth=0) -> list[str]:
    found = []
    schema = _object_branch(schema)
    for name, prop in (schema.get("properties") or {}).items():
        prop = _object_branch(prop)
        if ID_NAME.match(name) and _is_ids(prop):
            found.append(prefix + name)
        elif prop.get("type") == "array" and depth < 5:
            found += _id_fields(prop.get("items", {}), f"{prefix}{name}[].", depth + 1)
        elif "properties" in prop and depth < 5:
            found += _id_fields(prop, f"{prefix}{name}.", depth + 1)
    return found


def _declared_scope(documented):
    if documented is None:
        return NO_SCOPE
    if isinstance(documented, str):
        return documented
    if isinstance(documented, dict):
        return AllOf(*documented["allOf"])
    return frozenset(documented)


@cache
def platform_operations() -> tuple[Operation, ...]:
    """Every `/v1/platform/` operation of the document, in document order."""
    operations = []
    for path, item in document()["paths"].items():
        if not path.startswith(PLATFORM):
            continue
        shared = item.get("parameters", [])
        for method, spec in item.items():
            if method not in HTTP_METHODS:
                continue
            parameters = shared + spec.get("parameters", [])
            path_schemas = {p["name"]: p.get("schema", {}) for p in parameters if p["in"] == "path"}
            body = (spec.get("requestBody") or {}).get("content", {}).get("application/json", {}).get("schema")
            operations.append(
                Operation(
                    method=method.upper(),
                    path=path,
                    operation_id=spec["operationId"],
                    scope=_declared_scope(spec.get("x-required-scope")),
                    path_params={name: path_schemas.get(name, {}) for name in re.findall(r"\{([^}]+)\}", path)},
                    query_params={p["name"]: inline(p.get("schema", {})) for p in parameters if p["in"] == "query"},
                    required_query=tuple(p["name"] for p in parameters if p["in"] == "query" and p.get("required")),
                    body_schema=inline(body) if body else None,
                    responses=spec["responses"],
                )
            )
    return tuple(operations)


def template_key(method: str, path: str) -> tuple[str, str]:
    """A path template without its parameter names (the cases and the document name some differently)."""
    return method.upper(), re.sub(r"\{[^}]+\}", "{}", path.split("?")[0])


@cache
def _cases_by_template() -> dict:
    return {template_key(case.method, case.path): case for case in all_cases()}


def contract_case(operation: Operation) -> EndpointCase | None:
    """The operation's row of the uniform contract (tests/*/cases.py), whose `setup` makes what its path names."""
    return _cases_by_template().get(template_key(operation.method, operation.path))


def path_values(operation: Operation, case: EndpointCase, organization) -> dict:
    """The operation's path parameters, by the document's names, for objects `case.setup` makes in `organization`
    (the case's template may name them differently: matched by position)."""
    values = case.setup(organization) if case.setup else {}
    case_names = re.findall(r"\{([^}]+)\}", case.path.split("?")[0])
    return {name: values[case_name] for name, case_name in zip(operation.path_params, case_names, strict=True)}


def fill_path(operation: Operation, values: dict) -> str:
    path = operation.path
    for name, value in values.items():
        path = path.replace("{" + name + "}", str(value))
    return path


# --- a body with every required field -----------------------------------------------------------------------------

EXAMPLE_STRINGS = {
    "date": "2031-03-04",
    "date-time": "2031-03-04T10:00:00+01:00",
    "time": "10:00",
    "email": "someone@example.com",
    "uri": "https://example.com/x",
    "uuid": "00000000-0000-4000-8000-000000000000",
}


def example_value(schema: dict, name: str = "", ids=None):
    """A plain value that fits `schema` (an inlined schema): enums take their first value, ids come from
    `ids(name)` (None: 1), objects carry their required properties."""
    schema = _object_branch(schema)
    if "enum" in schema:
        return next((v for v in schema["enum"] if v is not None), None)
    if "default" in schema and schema["default"] is not None:
        return copy.deepcopy(schema["default"])
    kind = schema.get("type")
    if kind == "integer":
        if ID_NAME.match(name) and ids is not None:
            return ids(name)
        return max(int(schema.get("minimum", 1)), 1)
    if kind == "number":
        return max(schema.get("minimum", 1), 1)
    if kind == "boolean":
        return False
    if kind == "array":
        count = schema.get("minItems", 0)
        return [example_value(schema.get("items", {}), name, ids) for _ in range(count)]
    if kind == "object" or "properties" in schema:
        return example_object(schema, ids)
    if kind == "string":
        text = EXAMPLE_STRINGS.get(schema.get("format") or _format_by_name(name), "x")
        if name.lower().startswith("end") and text != "x":
            text = text.replace("-04", "-05")  # an end after its start
        return text * max(1, -(-schema.get("minLength", 1) // len(text)))
    return None


def _format_by_name(name: str) -> str | None:
    """Query parameters document dates as plain strings (`startDate`, `endTime`): their names tell."""
    if name.endswith("Date"):
        return "date"
    if name.endswith("Time"):
        return "date-time"
    return None


def example_object(schema: dict, ids=None) -> dict:
    properties = schema.get("properties") or {}
    return {
        name: example_value(properties[name], name, ids) for name in schema.get("required", ()) if name in properties
    }


def example_body(operation: Operation, ids=None):
    """A body with every required field of the operation's request filled (None without a request body)."""
    if operation.body_schema is None:
        return None
    return example_value(operation.body_schema, "", ids)


def example_query(operation: Operation, ids=None) -> dict:
    """The required query parameters, filled like body fields (`clubId`, `startDate` of the availability)."""
    return {name: example_value(operation.query_params[name], name, ids) for name in operation.required_query}


def set_field(operation: Operation, body: dict, dotted: str, value, ids=None) -> dict:
    """A copy of `body` with the field `a.b` or `items[].b` set; a missing list gets one example item, a missing
    object its example (so the rest of the body stays valid)."""
    body = copy.deepcopy(body or {})
    node, schema = body, _object_branch(operation.body_schema or {})
    parts = dotted.split(".")
    for part in parts[:-1]:
        name = part.removesuffix("[]")
        prop = _object_branch((schema.get("properties") or {}).get(name, {}))
        if part.endswith("[]"):
            schema = _object_branch(prop.get("items", {}))
            items = node.get(name) or [example_value(schema, name, ids)]
            node[name] = items
            node = items[0]
        else:
            schema = prop
            if not isinstance(node.get(name), dict):
                node[name] = example_value(prop, name, ids)
            node = node[name]
    node[parts[-1]] = value
    return body
