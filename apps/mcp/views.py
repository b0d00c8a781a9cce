"""The MCP server at `{MCP_URL}/admin` (and `/admin/readonly`): Streamable HTTP, one JSON-RPC message per POST,
answered with `application/json`, no session.

Order of checks: method (405), failed-authentication flood (429), body size (413), credential (401 with the
`WWW-Authenticate` that leads clients to the OAuth metadata), organization lock (403), JSON (-32700), one message
(-32600), its era's envelope, then the method. Errors of the API itself come back as tool results.
"""

import logging

import orjson
from django.http import HttpResponse
from django.views.decorators.csrf import csrf_exempt

from apps.api import bodylimit, ratelimit
from apps.api.authentication import bearer_token, resolve_credential
from apps.api.client_address import client_address
from apps.api.exceptions import ApiError, error_body
from apps.oauth.resources import mcp_resource, www_authenticate_header

from . import catalogue as catalogue_module
from . import dispatch
from .protocol import (
    HANDSHAKE_ERROR_STATUS,
    HANDSHAKE_VERSIONS,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    LATEST_HANDSHAKE,
    METHOD_NOT_FOUND,
    MODERN_ERROR_STATUS,
    MODERN_VERSIONS,
    PARSE_ERROR,
    SERVER_INFO_KEY,
    SUPPORTED_VERSIONS,
    RpcError,
    check_modern_envelope,
    is_modern,
    unsupported_version,
)

logger = logging.getLogger("apps.mcp")

SERVER_INFO = {"name": "platform-admin", "title": "Organization Platform API", "version": "1.0.0"}
CAPABILITIES = {"tools": {}}
INSTRUCTIONS = (
    "Every tool is one operation of the organization's Platform API, named by its operationId: arguments are the "
    "operation's path and query parameters and JSON body fields, in camelCase. A tool needs the scope its "
    "description names. A failed call returns isError with the API's error body (error, message, code, details) "
    "and its HTTP status; a 400 VALIDATION_ERROR names each argument to correct in details.fields. Lists take "
    "limit (at most 200) and offset. Amounts are in the organization's currency (me_get); date-times are ISO 8601 "
    "with an offset, answered in UTC."
)
LIST_TTL_MS = 300_000  # the tool list changes only with a deployment


def json_answer(body, status=200, headers=None) -> HttpResponse:
    response = HttpResponse(orjson.dumps(body), status=status, content_type="application/json")
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def api_error_answer(error: ApiError) -> HttpResponse:
    response = json_answer(error.body(), error.status_code, error.headers)
    if error.status_code == 401:
        response["WWW-Authenticate"] = www_authenticate_header()
    return response


class Exchange:
    """One POST: the request, its credential, the era it speaks and the surface it addresses."""

    def __init__(self, request, credential, read_only: bool):
        self.request = request
        self.credential = credential
        self.read_only = read_only
        self.toolsets = catalogue_module.parse_toolsets(request.GET.get("toolsets"))
        self.modern = False
        self.version = None
        self.extra_headers: dict[str, str] = {}
        self.counted = False  # the request counted against the credential's buckets (a tool call counts in REST)

    @property
    def surface(self):
        return catalogue_module.catalogue().surface(self.read_only, self.toolsets)

    def result(self, body: dict) -> dict:
        """A result as this era spells it (2026-07-28 results say they are complete and name the server)."""
        if self.modern:
            body = {**body, "resultType": "complete", "_meta": {SERVER_INFO_KEY: SERVER_INFO}}
        return body


@csrf_exempt
def mcp_endpoint(request, read_only=False):
    if request.method != "POST":
        response = json_answer(
            error_body(
                405,
                "METHOD_NOT_ALLOWED",
                "The MCP endpoint takes one JSON-RPC message per POST; it offers "
                "no stream (GET) and no session (DELETE).",
            ),
            405,
        )
        response["Allow"] = "POST"
        return response
    address = client_address(request)
    try:
        ratelimit.refuse_failed_authentication_flood(address)  # before any database work
        bodylimit.enforce(request)
        token = bearer_token(request)
        if token is None:
            raise ApiError(
                "A valid bearer credential (API key or OAuth access token) is required.",
                code="UNAUTHENTICATED",
                status=401,
            )
        # An OAuth token must have been issued for this server (RFC 8707); the read-only surface is a narrower
        # resource of it.
        resource = f"{mcp_resource()}/readonly" if read_only else mcp_resource()
        credential = resolve_credential(token, resource)
    except ApiError as error:
        if error.status_code in (401, 403):
            ratelimit.count_failed_authentication(address)
        return api_error_answer(error)
    exchange = Exchange(request, credential, read_only)
    try:
        response = handle(exchange)
    except ApiError as error:  # the request's own rate limit
        response = api_error_answer(error)
    if not exchange.counted:
        state = ratelimit.tightest(ratelimit.peek(request, credential.rate_limit_key))
        ratelimit.apply_headers(response, state)
    for name, value in exchange.extra_headers.items():
        response[name] = value
    return response


def count_request(exchange: Exchange):
    """A request that dispatches to no REST view counts against the general bucket here (a tool call counts in
    the view it runs, once)."""
    states = ratelimit.consume(exchange.request, exchange.credential.rate_limit_key, None)
    exceeded = ratelimit.first_exceeded(states)
    exchange.extra_headers.update(headers_of(exceeded or ratelimit.tightest(states)))
    exchange.counted = True
    if exceeded:
        raise ApiError(
            f"Rate limit exceeded for the `{exceeded.bucket}` bucket; retry in {exceeded.reset} seconds.",
            code="RATE_LIMITED",
            status=429,
            details={"bucket": exceeded.bucket, "limit": exceeded.limit, "windowSeconds": ratelimit.WINDOW_SECONDS},
            headers={"Retry-After": str(exceeded.reset)},
        )


def headers_of(state) -> dict:
    probe = HttpResponse()
    ratelimit.apply_headers(probe, state)
    return {name: probe[name] for name in dispatch.RATE_LIMIT_HEADERS}


def rpc_error_answer(exchange: Exchange, message_id, error: RpcError) -> HttpResponse:
    statuses = MODERN_ERROR_STATUS if exchange.modern else HANDSHAKE_ERROR_STATUS
    status = error.status or statuses.get(error.code, 200)
    return json_answer({"jsonrpc": "2.0", "id": message_id, "error": error.error()}, status)


def handle(exchange: Exchange) -> HttpResponse:
    request = exchange.request
    try:
        body = orjson.loads(request.body)
    except orjson.JSONDecodeError:
        count_request(exchange)
        return rpc_error_answer(exchange, None, RpcError(PARSE_ERROR, "Parse error: the body is not JSON."))
    message_id = body.get("id") if isinstance(body, dict) else None
    try:
        if isinstance(body, list):
            raise RpcError(INVALID_REQUEST, "Batches are not supported: send one JSON-RPC message per POST.")
        if not isinstance(body, dict) or body.get("jsonrpc") != "2.0":
            raise RpcError(INVALID_REQUEST, "The body must be one JSON-RPC 2.0 message.")
        if "method" not in body:
            if "result" in body or "error" in body:  # a response to a server request: this server sends none
                count_request(exchange)
                return HttpResponse(status=202)
            raise RpcError(INVALID_REQUEST, "The message has no method.")
        method = body["method"]
        if not isinstance(method, str):
            raise RpcError(INVALID_REQUEST, "The method must be a string.")
        if "id" not in body:
            count_request(exchange)
            return HttpResponse(status=202)  # a notification (`notifications/initialized`, cancellations): noted
        if message_id is None or isinstance(message_id, bool) or not isinstance(message_id, str | int):
            message_id = None
            raise RpcError(INVALID_REQUEST, "The id must be a string or an integer.")
        params = body.get("params", {})
        if not isinstance(params, dict):
            raise RpcError(INVALID_PARAMS, "params must be an object.", status=400)
        header_version = request.headers.get("MCP-Protocol-Version")
        exchange.modern = is_modern(header_version, params)
        if exchange.modern:
            exchange.version = check_modern_envelope(body, request.headers)
        elif method != "initialize":
            if header_version is not None and header_version not in HANDSHAKE_VERSIONS:
                raise unsupported_version(header_version)
            exchange.version = header_version or HANDSHAKE_VERSIONS[0]
        result = run(exchange, method, params)
    except RpcError as error:
        if not exchange.counted:
            count_request(exchange)
        return rpc_error_answer(exchange, message_id, error)
    except ApiError:
        raise
    except Exception:
        logger.exception("MCP request failed (request %s)", getattr(request, "request_id", None))
        error = RpcError(
            INTERNAL_ERROR, "An unexpected error occurred.", {"requestId": getattr(request, "request_id", None)}
        )
        return rpc_error_answer(exchange, message_id, error)
    return HttpResponse(
        orjson.dumps({"jsonrpc": "2.0", "id": message_id, "result": result}), content_type="application/json"
    )


def run(exchange: Exchange, method: str, params: dict) -> dict:
    if method == "tools/call":
        return call_tool(exchange, params)
    count_request(exchange)
    if method == "ping":
        return exchange.result({})
    if method == "tools/list":
        return list_tools(exchange, params)
    if method == "initialize" and not exchange.modern:
        return initialize(params)
    if method == "server/discover" and exchange.modern:
        return discover(exchange)
    raise RpcError(METHOD_NOT_FOUND, f"Method not found: {method}")


def initialize(params: dict) -> dict:
    """Version negotiation of the handshake revisions: the client's version when this server speaks it, else the
    latest this server speaks (the client then decides whether it can go on)."""
    requested = params.get("protocolVersion")
    version = requested if requested in HANDSHAKE_VERSIONS else LATEST_HANDSHAKE
    return {
        "protocolVersion": version,
        "capabilities": CAPABILITIES,
        "serverInfo": SERVER_INFO,
        "instructions": INSTRUCTIONS,
    }


def list_page(exchange: Exchange, cursor) -> tuple[object, str | None]:
    surface = exchange.surface
    index = 0
    if cursor is not None:
        if not isinstance(cursor, str) or not cursor.startswith("p") or not cursor[1:].isdigit():
            raise RpcError(INVALID_PARAMS, "Invalid cursor.")
        index = int(cursor[1:])
        if not 0 < index < len(surface.pages):
            raise RpcError(INVALID_PARAMS, "Invalid cursor.")
    next_cursor = f"p{index + 1}" if index + 1 < len(surface.pages) else None
    return orjson.Fragment(surface.page_bytes[index]), next_cursor


def list_tools(exchange: Exchange, params: dict) -> dict:
    tools, next_cursor = list_page(exchange, params.get("cursor"))
    result = {"tools": tools}
    if next_cursor:
        result["nextCursor"] = next_cursor
    if exchange.modern:
        result.update(cacheScope="public", ttlMs=LIST_TTL_MS)
    return exchange.result(result)


def discover(exchange: Exchange) -> dict:
    tools, next_cursor = list_page(exchange, None)
    result = {
        "supportedVersions": list(SUPPORTED_VERSIONS),
        "protocolVersion": MODERN_VERSIONS[-1],
        "capabilities": CAPABILITIES,
        "serverInfo": SERVER_INFO,
        "instructions": INSTRUCTIONS,
        "cacheScope": "public",
        "ttlMs": LIST_TTL_MS,
        # The first page of tools/list, so that a client can start at once.
        "tools": tools,
    }
    if next_cursor:
        result["nextCursor"] = next_cursor
    return exchange.result(result)


def call_tool(exchange: Exchange, params: dict) -> dict:
    name = params.get("name")
    if not isinstance(name, str):
        raise RpcError(INVALID_PARAMS, "params.name must be the tool's name.")
    tool = exchange.surface.by_name.get(name)
    if tool is None:
        if name in catalogue_module.catalogue().by_name:
            raise RpcError(INVALID_PARAMS, f"The tool {name} is not offered at this address (see its toolsets).")
        raise RpcError(INVALID_PARAMS, f"Unknown tool: {name}")
    arguments = params.get("arguments")
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        raise RpcError(INVALID_PARAMS, "params.arguments must be an object.")
    fields = dispatch.argument_errors(tool, arguments)
    if fields:
        count_request(exchange)
        return exchange.result(dispatch.error_result(dispatch.invalid_arguments_body(fields)))
    answer = dispatch.call_rest(exchange.request, exchange.credential, tool, arguments)
    exchange.counted = True
    exchange.extra_headers.update(answer.headers)
    return exchange.result(dispatch.tool_result(answer))
