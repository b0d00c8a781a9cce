"""The MCP tools, generated from the served OpenAPI document: one tool per Platform API operation.

Nothing here names an endpoint. The document drf-spectacular generates from the routers (the same one
`/v1/openapi.json` serves) already states, per operation, its `operationId`, path and query parameters (from the
path and the FilterSet), its request body (the write serializer), its response (the resource declaration), its
scope (`x-required-scope`) and its summary; each tool is read off that. A new endpoint is a new tool with no code.

The catalogue is built once per process, on its first MCP request (generation takes about 2 s; a web process
that serves no MCP request never builds it); the list pages are serialized once too, so `tools/list` costs a
dictionary lookup. The tools are built by a child process (`python -m apps.mcp.catalogue`): generating the document
walks every view, serializer and FilterSet, and a web worker that did so grew by ~17 MiB it never gave back. The
worker keeps each tool's definition as the JSON bytes `tools/list` sends, and parses its schemas only when a call
needs them.
"""

import copy
import logging
import os
import re
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property

import orjson

logger = logging.getLogger(__name__)
PROJECT_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLATFORM_PREFIX = "/v1/platform/"
BODY_METHODS = frozenset({"POST", "PATCH", "PUT"})
IDEMPOTENCY_ARGUMENT = "idempotencyKey"
JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
# OpenAPI 3.0 keywords that are not JSON Schema (or only annotate the document).
DROPPED_KEYWORDS = frozenset(
    {"nullable", "example", "xml", "externalDocs", "discriminator", "deprecated", "readOnly", "writeOnly"}
)


@dataclass
class Tool:
    name: str
    method: str
    path: str  # the path template, `/v1/platform/classes/{id}`
    title: str
    description: str
    scope: str | None  # None: a valid credential is enough
    scope_resources: frozenset[str]  # the resources of its scope, any-of alternatives or all-of scopes (toolsets)
    all_scopes: bool  # it needs every scope of scope_resources, not one of them
    path_params: dict[str, str]  # argument name -> the path template's name (`deliveryId` -> `delivery_id`)
    query_params: dict[str, str]  # argument name -> JSON Schema type of the parameter
    body_params: dict[str, str]  # argument name -> body field name
    has_body: bool
    annotations: dict
    definition_json: bytes = field(repr=False)  # the tool as `tools/list` lists it, serialized
    _validator: object | None = field(repr=False, default=None)

    @cached_property
    def input_schema(self) -> dict:
        return self.definition()["inputSchema"]

    @cached_property
    def output_schema(self) -> dict:
        return self.definition()["outputSchema"]

    @property
    def validator(self):
        """The arguments' validator (a `jsonschema.Draft202012Validator`), compiled on the tool's first call (the
        schemas are checked against the metaschema by the tests, not at every start)."""
        if self._validator is None:
            # jsonschema costs a web worker ~5 MB: loaded by the first tool call, not by every process at start.
            from jsonschema import Draft202012Validator

            self._validator = Draft202012Validator(self.input_schema)
        return self._validator

    def in_toolsets(self, toolsets: frozenset[str]) -> bool:
        """In a surface of these toolsets: one of its scopes' resources is among them (every one, for a tool that
        needs all of its scopes)."""
        if self.all_scopes:
            return self.scope_resources <= toolsets
        return bool(self.scope_resources & toolsets)

    @property
    def read_only(self) -> bool:
        return self.annotations["readOnlyHint"]

    def definition(self) -> dict:
        """The tool as `tools/list` lists it."""
        return orjson.loads(self.definition_json)

    def rest_path(self, arguments: dict) -> str | None:
        """The REST path these arguments name; None when a path value cannot be one path segment (no route)."""
        path = self.path
        for argument, name in self.path_params.items():
            value = arguments[argument]
            value = str(value).lower() if isinstance(value, bool) else str(value)
            if not value or "/" in value:
                return None
            path = path.replace("{" + name + "}", value)
        return path


# --- OpenAPI 3.0 schema -> JSON Schema 2020-12 ------------------------------------------------------------------


class SchemaConverter:
    """Inlines `$ref`s of the document's components and spells OpenAPI 3.0 as JSON Schema 2020-12: `nullable`
    becomes a `null` type (or a `null` branch), boolean `exclusiveMinimum`/`exclusiveMaximum` become numbers."""

    def __init__(self, components: dict):
        self.components = components
        self.memo: dict[str, dict] = {}

    def convert(self, node, stack=()):
        if isinstance(node, list):
            return [self.convert(item, stack) for item in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            if name in stack:  # a recursive shape: stop describing it (no component of the API is recursive)
                return {"type": "object"}
            if name not in self.memo:
                self.memo[name] = self.convert(self.components[name], stack + (name,))
            resolved = copy.deepcopy(self.memo[name])
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            if siblings:
                return {**resolved, **self.convert(siblings, stack)}
            return resolved
        out = {}
        for key, value in node.items():
            if key in DROPPED_KEYWORDS or key.startswith("x-"):
                continue
            if key == "properties":
                out[key] = {name: self.convert(sub, stack) for name, sub in value.items()}
            elif key in ("exclusiveMinimum", "exclusiveMaximum") and isinstance(value, bool):
                bound = "minimum" if key == "exclusiveMinimum" else "maximum"
                if value and bound in node:
                    out[key] = node[bound]
            elif key in ("minimum", "maximum") and node.get("exclusive" + key.capitalize()) is True:
                continue
            else:
                out[key] = self.convert(value, stack)
        if node.get("nullable") is True:
            out = nullable(out)
        return out


def nullable(schema: dict) -> dict:
    kind = schema.get("type")
    if isinstance(kind, str):
        schema = {**schema, "type": [kind, "null"]}
        if "enum" in schema and None not in schema["enum"]:
            schema["enum"] = [*schema["enum"], None]
        return schema
    if isinstance(kind, list):
        return schema if "null" in kind else {**schema, "type": [*kind, "null"]}
    if "enum" in schema:
        return schema if None in schema["enum"] else {**schema, "enum": [*schema["enum"], None]}
    if any(keyword in schema for keyword in ("oneOf", "anyOf", "allOf")):
        return {"anyOf": [schema, {"type": "null"}]}
    return schema


# --- operations -> tools -----------------------------------------------------------------------------------------


def success_response(operation) -> tuple[str | None, dict | None]:
    for status in ("200", "201", "202", "204"):
        response = operation.get("responses", {}).get(status)
        if response is not None:
            schema = (response.get("content") or {}).get("application/json", {}).get("schema")
            return status, schema
    return None, None


def annotations_for(method: str, success_status: str | None, title: str) -> dict:
    """The four hints, from the method and the documented success status.

    GET reads. PATCH and DELETE change or remove what exists (destructive) and repeating them changes nothing more
    (idempotent). A POST that answers 201 adds a record (a create, `duplicate`, `refund`, `publish`): additive,
    and each call adds another. A POST that answers 200 is a state change of an existing record (`cancel`,
    `archive`, `retire`, `rotate`): destructive. No POST is declared idempotent: some verbs (`rotate`, a payment
    report) do something new on every call.
    """
    read_only = method == "GET"
    return {
        "title": title,
        "readOnlyHint": read_only,
        "destructiveHint": (not read_only) and (method in ("PATCH", "PUT", "DELETE") or success_status == "200"),
        "idempotentHint": method in ("GET", "PATCH", "PUT", "DELETE"),
        "openWorldHint": False,
    }


def describe(operation, scope, any_of, all_of, bucket) -> str:
    summary = (operation.get("summary") or "").strip()
    description = (operation.get("description") or "").strip()
    parts = [summary if summary.endswith(".") or not summary else summary + "."]
    if description and description != summary:
        parts.append(description)
    if scope is None:
        parts.append("Needs no scope: any valid credential.")
    elif any_of:
        parts.append("Required scope: any of " + ", ".join(f"`{s}`" for s in any_of) + ".")
    elif all_of:
        parts.append("Required scopes: all of " + ", ".join(f"`{s}`" for s in all_of) + ".")
    else:
        parts.append(f"Required scope: `{scope}`.")
    if bucket:
        parts.append("Rate limits: " + " and ".join(f"`{b}`" for b in bucket) + " buckets.")
    return "\n\n".join(p for p in parts if p)


def camel_case(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def scope_resource(scope: str) -> str:
    return scope.split(":", 1)[0]


def read_scope(declared) -> tuple[str | None, list[str], list[str]]:
    """`x-required-scope` as (the scope, any-of alternatives, all-of scopes): one scope, none (null), a list of
    which any one is enough, or `{allOf: [...]}`."""
    if isinstance(declared, list):
        return (declared[0] if declared else None), list(declared), []
    if isinstance(declared, dict):
        all_of = list(declared.get("allOf") or [])
        return (all_of[0] if all_of else None), [], all_of
    return declared, [], []


def build_tool(path: str, method: str, operation: dict, converter: SchemaConverter) -> Tool:
    name = operation["operationId"]
    properties: dict[str, dict] = {}
    required: list[str] = []
    path_params: dict[str, str] = {}
    query_params: dict[str, str] = {}
    for parameter in operation.get("parameters", []):
        where, pname = parameter.get("in"), parameter["name"]
        if where == "path":
            # Arguments are camelCase whatever a path template calls its variable.
            template_name, pname = pname, camel_case(pname)
        if where not in ("path", "query"):
            continue  # the Idempotency-Key header becomes `idempotencyKey` below
        schema = converter.convert(parameter.get("schema") or {"type": "string"})
        if parameter.get("description") and "description" not in schema:
            schema["description"] = parameter["description"]
        if where == "path":
            path_params[pname] = template_name
            required.append(pname)
        else:
            kind = schema.get("type")
            if kind == "array" or (isinstance(kind, list) and "array" in kind):
                query_params[pname] = "array"
            else:
                query_params[pname] = kind if isinstance(kind, str) else "string"
            if parameter.get("required"):
                required.append(pname)
        properties[pname] = schema

    body_params: dict[str, str] = {}
    has_body = False
    content = (operation.get("requestBody") or {}).get("content") or {}
    body_schema = (content.get("application/json") or {}).get("schema")
    if body_schema is not None and method in BODY_METHODS:
        has_body = True
        body = converter.convert(body_schema)
        for field_name, field_schema in (body.get("properties") or {}).items():
            argument = field_name
            if argument in properties:
                # A body field named like a path parameter (a PATCH renaming the identifier the path names):
                # the argument is `body<Name>`, the path keeps its name.
                argument = "body" + field_name[:1].upper() + field_name[1:]
                field_schema = {**field_schema, "description": f"The body field `{field_name}` (the new value)."}
            properties[argument] = field_schema
            body_params[argument] = field_name
            if field_name in body.get("required", []):
                required.append(argument)

    if method == "POST":
        properties[IDEMPOTENCY_ARGUMENT] = {
            "type": "string",
            "minLength": 1,
            "maxLength": 255,
            "pattern": "^[\\x21-\\x7E]([\\x20-\\x7E]*[\\x21-\\x7E])?$",
            "description": "Optional Idempotency-Key: the same key with the same arguments within 24 h replays "
            "the first successful answer instead of acting again.",
        }

    input_schema = {"type": "object", "properties": properties}
    if required:
        input_schema["required"] = required

    status, response_schema = success_response(operation)
    if status == "204" or response_schema is None:
        output_schema = {"type": "object"}
    else:
        output_schema = converter.convert(response_schema)
        if output_schema.get("type") != "object":
            output_schema = {"type": "object"}

    scope, any_of, all_of = read_scope(operation.get("x-required-scope"))
    resources = frozenset(scope_resource(s) for s in ([scope] if scope else []) + any_of + all_of)
    summary = (operation.get("summary") or name).strip().rstrip(".")
    bucket = [b for b in operation.get("x-rate-limit-bucket", []) if b != "general"]
    description = describe(operation, scope, any_of, all_of, bucket)
    annotations = annotations_for(method, status, summary)
    tool = Tool(
        name=name,
        method=method,
        path=path,
        title=summary,
        description=description,
        all_scopes=bool(all_of),
        scope=scope,
        scope_resources=resources,
        path_params=path_params,
        query_params=query_params,
        body_params=body_params,
        has_body=has_body,
        annotations=annotations,
        definition_json=orjson.dumps(
            {
                "name": name,
                "title": summary,
                "description": description,
                "inputSchema": input_schema,
                "outputSchema": output_schema,
                "annotations": annotations,
            }
        ),
    )
    return tool


def tools_from_document(document: dict) -> list[Tool]:
    converter = SchemaConverter(document.get("components", {}).get("schemas", {}))
    tools = []
    for path, item in document.get("paths", {}).items():
        if not path.startswith(PLATFORM_PREFIX):
            continue  # the marketplace is not the Platform API
        for method, operation in item.items():
            if method.upper() not in ("GET", "POST", "PATCH", "PUT", "DELETE"):
                continue
            tools.append(build_tool(path, method.upper(), operation, converter))
    names = [t.name for t in tools]
    duplicates = {n for n in names if names.count(n) > 1}
    if duplicates:
        raise ValueError(f"operationIds used twice: {sorted(duplicates)}")
    return sorted(tools, key=lambda t: t.name)


def openapi_document() -> dict:
    """The served document, generated exactly as `/v1/openapi.json` generates it."""
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.settings import spectacular_settings

    generator = SchemaGenerator(api_version=spectacular_settings.VERSION)
    return orjson.loads(orjson.dumps(generator.get_schema(request=None, public=True), default=_json_value))


def tools_from_child() -> list[Tool]:
    """`tools_from_document(openapi_document())` as a child process builds them (the same settings: the environment
    is inherited), read from its `tool_lines`; built in this process when the child fails."""
    child = subprocess.run(
        [sys.executable, "-m", "apps.mcp.catalogue"], cwd=PROJECT_DIR, env=os.environ, capture_output=True, check=False
    )
    if child.returncode != 0:
        logger.warning("MCP catalogue: the child process failed (%s), building it here", child.stderr[-2000:])
        return tools_from_document(openapi_document())
    lines = child.stdout.split(b"\n") if child.stdout else []
    tools = []
    for fields_line, definition_json in zip(lines[0::2], lines[1::2], strict=True):
        fields = orjson.loads(fields_line)
        fields["scope_resources"] = frozenset(fields["scope_resources"])
        tools.append(Tool(**fields, definition_json=definition_json))
    return tools


def tool_lines(tools: list[Tool]) -> bytes:
    """Two lines per tool: its other fields as a JSON object, then its definition's JSON as it is."""
    lines = []
    for tool in tools:
        fields = {
            name: sorted(value) if isinstance(value, frozenset) else value
            for name, value in vars(tool).items()
            if name in Tool.__dataclass_fields__ and name not in ("definition_json", "_validator")
        }
        lines += [orjson.dumps(fields), tool.definition_json]
    return b"\n".join(lines)


def _json_value(value):
    if isinstance(value, Decimal):  # the bounds of decimal fields
        return int(value) if value == value.to_integral_value() else float(value)
    return str(value)


# --- the catalogue and its surfaces ------------------------------------------------------------------------------

PAGE_SIZE = 50
TOOLSET_SPLIT = re.compile(r"[,\s]+")


class Surface:
    """The tools one endpoint offers: all of them, only the read-only ones, or those of some toolsets."""

    def __init__(self, tools: list[Tool]):
        self.tools = tools
        self.by_name = {t.name: t for t in tools}
        self.pages = [tools[i : i + PAGE_SIZE] for i in range(0, max(len(tools), 1), PAGE_SIZE)]
        # Serialized once, from the tools' own bytes: a list page is spliced into the JSON-RPC answer as it is.
        self.page_bytes = [b"[" + b",".join(t.definition_json for t in page) + b"]" for page in self.pages]


class Catalogue:
    def __init__(self, tools: list[Tool]):
        self.tools = tools
        self.by_name = {t.name: t for t in tools}
        self._surfaces: dict[tuple, Surface] = {}
        self._lock = threading.Lock()

    def surface(self, read_only: bool, toolsets: frozenset[str] | None) -> Surface:
        key = (read_only, toolsets)
        found = self._surfaces.get(key)
        if found is None:
            tools = [
                t
                for t in self.tools
                if (not read_only or t.read_only) and (toolsets is None or t.scope is None or t.in_toolsets(toolsets))
            ]
            with self._lock:
                if len(self._surfaces) > 256:  # `toolsets` comes from the URL: keep the memo bounded
                    self._surfaces.clear()
                found = self._surfaces.setdefault(key, Surface(tools))
        return found

    def known_toolsets(self) -> frozenset[str]:
        return frozenset(r for t in self.tools for r in t.scope_resources)


_catalogue: Catalogue | None = None
_build_lock = threading.Lock()


def catalogue() -> Catalogue:
    """The process's catalogue, built on first use."""
    global _catalogue
    if _catalogue is None:
        with _build_lock:
            if _catalogue is None:
                _catalogue = Catalogue(tools_from_child())
    return _catalogue


def parse_toolsets(raw: str | None) -> frozenset[str] | None:
    """`?toolsets=classes,bookings`: None when absent or blank (no narrowing); unknown names simply match nothing."""
    if raw is None:
        return None
    names = frozenset(n for n in TOOLSET_SPLIT.split(raw.strip().lower()) if n)
    return names or None


if __name__ == "__main__":  # the child of `tools_from_child`: the tools as `tool_lines` on stdout
    import django

    django.setup()
    sys.stdout.buffer.write(tool_lines(tools_from_document(openapi_document())))
