"""A tool call is its REST call: the arguments become the operation's path, query and JSON body, and the request is
dispatched to the very view that serves the REST path, with the caller's credential already authenticated.

Everything REST does happens as it does for REST, in the same order: the scope check, the rate buckets, the path
object, the body validation, `Idempotency-Key`, the services and their events, the error envelope. Only the
arguments' shape is checked here first (against the tool's `inputSchema`), so that a model learns at once, in the
400 envelope, which argument to correct.
"""

import io
from dataclasses import dataclass
from urllib.parse import urlencode

import orjson
from django.core.handlers.wsgi import WSGIRequest
from django.urls import resolve

from apps.api.exceptions import error_body

from .catalogue import IDEMPOTENCY_ARGUMENT, Tool

RATE_LIMIT_HEADERS = (
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Reset",
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
    "RateLimit-Policy",
)
# Request headers of the MCP request that mean nothing to the REST view (or would mislead it).
DROPPED_META = ("HTTP_IDEMPOTENCY_KEY", "HTTP_TRANSFER_ENCODING", "HTTP_CONTENT_LENGTH", "HTTP_CONTENT_TYPE")


@dataclass
class RestAnswer:
    status: int
    content: bytes
    headers: dict[str, str]


# --- arguments ----------------------------------------------------------------------------------------------------


def _path_name(path) -> str:
    name = ""
    for part in path:
        if isinstance(part, int):
            name += f"[{part}]"
        else:
            name = f"{name}.{part}" if name else str(part)
    return name


def _bound(value):
    return int(value) if isinstance(value, float) and value.is_integer() else value


# The message of each JSON Schema keyword whose expected value reads as one number or text.
MESSAGES = {
    "minimum": "Must be at least {}.",
    "maximum": "Must be at most {}.",
    "exclusiveMinimum": "Must be greater than {}.",
    "exclusiveMaximum": "Must be less than {}.",
    "minLength": "Must have at least {} characters.",
    "maxLength": "Must have at most {} characters.",
    "minItems": "Must have at least {} items.",
    "maxItems": "Must have at most {} items.",
    "pattern": "Must match the pattern `{}`.",
}


def _message(error) -> str:
    kind, expected = error.validator, error.validator_value
    if kind == "type":
        kinds = expected if isinstance(expected, list) else [expected]
        return "Must be of type " + " or ".join(k for k in kinds) + "."
    if kind == "enum":
        return "Must be one of: " + ", ".join("null" if v is None else str(v) for v in expected) + "."
    if kind in MESSAGES:
        return MESSAGES[kind].format(_bound(expected))
    return error.message[:200]


def _reported(error):
    """The errors to report for `error`: for a union ("null or an object"), every error of the branch that got
    furthest into the value, not the union itself."""
    if error.validator in ("anyOf", "oneOf") and error.context:
        branches: dict = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        best = max(branches.values(), key=lambda errors: max(len(e.absolute_path) for e in errors))
        if max(len(e.absolute_path) for e in best) > len(error.absolute_path):
            for sub in best:
                yield from _reported(sub)
            return
    yield error


def argument_errors(tool: Tool, arguments: dict) -> dict[str, list[str]]:
    """`{argument: [messages]}` for arguments that break the tool's `inputSchema` (nested ones named like REST
    names nested body fields: `recurrence.ends.type`, `instructorIds[0]`)."""
    fields: dict[str, list[str]] = {}
    for error in (reported for found in tool.validator.iter_errors(arguments) for reported in _reported(found)):
        if error.validator == "required":
            missing = [
                name
                for name in error.validator_value
                if isinstance(error.instance, dict) and name not in error.instance
            ]
            for name in missing:
                key = _path_name([*error.absolute_path, name])
                if "This field is required." not in fields.setdefault(key, []):
                    fields[key].append("This field is required.")
            continue
        key = _path_name(error.absolute_path) or "nonFieldErrors"
        message = _message(error)
        if message not in fields.setdefault(key, []):
            fields[key].append(message)
    return fields


def invalid_arguments_body(fields: dict) -> dict:
    return {**error_body(400, "VALIDATION_ERROR", "The tool arguments are invalid.", {"fields": fields}), "status": 400}


# --- the REST request -----------------------------------------------------------------------------------------------


def _query_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ",".join(_query_value(v) for v in value)
    if isinstance(value, dict):
        return orjson.dumps(value).decode()
    return str(value)


def rest_request(outer, credential, tool: Tool, path: str, arguments: dict) -> WSGIRequest:
    """The REST request a tool call stands for, carrying the MCP request's client address, request id and
    (already authenticated) credential."""
    query = [
        (name, _query_value(arguments[name]))
        for name in tool.query_params
        if name in arguments and arguments[name] is not None
    ]
    environ = {key: value for key, value in outer.META.items() if key not in DROPPED_META}
    environ.update(
        REQUEST_METHOD=tool.method,
        PATH_INFO=path.encode().decode("latin-1"),  # WSGI spells a path as latin-1-decoded bytes
        QUERY_STRING=urlencode(query),
        HTTP_ACCEPT="application/json",
    )
    body = b""
    if tool.has_body:
        named = set(tool.path_params) | set(tool.query_params) | {IDEMPOTENCY_ARGUMENT}
        fields = {tool.body_params.get(name, name): value for name, value in arguments.items() if name not in named}
        body = orjson.dumps(fields)
    environ["CONTENT_TYPE"] = "application/json" if body else ""
    environ["CONTENT_LENGTH"] = str(len(body))
    environ["wsgi.input"] = io.BytesIO(body)
    key = arguments.get(IDEMPOTENCY_ARGUMENT)
    if tool.method == "POST" and key is not None:
        environ["HTTP_IDEMPOTENCY_KEY"] = key
    request = WSGIRequest(environ)
    request.request_id = getattr(outer, "request_id", None)
    request.authenticated_credential = credential
    return request


NOT_FOUND = RestAnswer(404, orjson.dumps(error_body(404, "NOT_FOUND", "No route serves this path.")), {})


def call_rest(outer, credential, tool: Tool, arguments: dict) -> RestAnswer:
    path = tool.rest_path(arguments)
    if path is None:
        return NOT_FOUND
    request = rest_request(outer, credential, tool, path, arguments)
    match = resolve(request.path_info)
    request.resolver_match = match
    response = match.func(request, *match.args, **match.kwargs)
    if hasattr(response, "render") and not getattr(response, "is_rendered", True):
        response.render()
    headers = {name: response[name] for name in RATE_LIMIT_HEADERS if response.has_header(name)}
    if response.has_header("Retry-After"):
        headers["Retry-After"] = response["Retry-After"]
    return RestAnswer(response.status_code, response.content, headers)


# --- the tool result ------------------------------------------------------------------------------------------------


def tool_result(answer: RestAnswer) -> dict:
    """`structuredContent` (the body) and `content[0].text` (its JSON); an error carries its body plus `status`."""
    if 200 <= answer.status < 300:
        if answer.status == 204 or not answer.content:
            return {"content": [{"type": "text", "text": "No content"}], "structuredContent": {}, "isError": False}
        # The body's bytes are spliced in as they are: no second serialization of a 200-row page.
        return {
            "content": [{"type": "text", "text": answer.content.decode()}],
            "structuredContent": orjson.Fragment(answer.content),
            "isError": False,
        }
    try:
        body = orjson.loads(answer.content) if answer.content else {}
    except orjson.JSONDecodeError:
        body = {}
    if not isinstance(body, dict):
        body = {"error": str(body)}
    return error_result({**body, "status": answer.status})


def error_result(body: dict) -> dict:
    return {
        "content": [{"type": "text", "text": orjson.dumps(body).decode()}],
        "structuredContent": body,
        "isError": True,
    }
