"""Request ids on every response (and in every log record of the request), request latency, and JSON errors for
Django-level failures under /v1/."""

import logging
import re
import time
import uuid

from django.conf import settings
from django.http import HttpResponse

from .exceptions import database_unreachable
from .logs import current_request_id
from .metrics import observe_request
from .renderers import dumps

logger = logging.getLogger("apps.api")
_INCOMING_ID = re.compile(r"[A-Za-z0-9._-]{1,100}")  # fullmatch: `$` would let a trailing newline in
# The public marketplace API has its own, shorter error bodies (`{error, details?}`), without a trace.
PUBLIC_PREFIX = "/v1/public/"
PUBLIC_INTERNAL_ERROR = {"error": "Internal error"}


def json_response(body: dict, status: int, request=None) -> HttpResponse:
    response = HttpResponse(dumps(body), status=status, content_type="application/json")
    if request is not None and getattr(request, "request_id", None):
        response["X-Request-Id"] = request.request_id
    return response


def incoming_request_id(request) -> str | None:
    """The `X-Request-Id` the request arrived with, when a trusted proxy passed it on and it is sane (1-100 of
    `A-Za-z0-9._-`). A proxy is trusted as for the client address (`TRUSTED_PROXY_COUNT`, apps/api/client_address.py):
    the deployment declares its proxies and the request carries the `X-Forwarded-For` hops they add. Without that,
    the header is the client's own and is ignored (a client must not choose the id under which its requests are
    logged and reported)."""
    trusted = settings.TRUSTED_PROXY_COUNT
    if trusted <= 0:
        return None
    incoming = request.META.get("HTTP_X_REQUEST_ID", "")
    if not incoming or not _INCOMING_ID.fullmatch(incoming):
        return None
    hops = [hop for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
    return incoming if len(hops) >= trusted else None


class RequestIdMiddleware:
    """First in MIDDLEWARE: gives the request its id (`request.request_id`, the `X-Request-Id` response header,
    the `request_id` of every log record meanwhile) and times it for the latency histogram."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        started = time.perf_counter()
        request.request_id = incoming_request_id(request) or uuid.uuid4().hex
        token = current_request_id.set(request.request_id)
        try:
            response = self.get_response(request)
            response["X-Request-Id"] = request.request_id
            observe_request(request, response.status_code, time.perf_counter() - started)
            return response
        finally:
            current_request_id.reset(token)

    def process_exception(self, request, exception):
        unavailable = database_unreachable_answer(request, exception)
        if unavailable is not None or not request.path.startswith("/v1/"):
            return unavailable
        logger.exception("Unhandled error on %s (request %s)", request.path, request.request_id)
        if request.path.startswith(PUBLIC_PREFIX):
            return json_response(PUBLIC_INTERNAL_ERROR, 500, request)
        return json_response(
            {
                "error": "Internal Server Error",
                "message": "An unexpected error occurred.",
                "code": "INTERNAL_ERROR",
                "details": {"requestId": request.request_id},
            },
            500,
            request,
        )


UNAVAILABLE_PAGE = (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Temporarily unavailable</title></head>'
    "<body><main><h1>Temporarily unavailable</h1><p>Please try again in a few seconds.</p></main></body></html>"
)


def database_unreachable_answer(request, exception) -> HttpResponse | None:
    """503 with `Retry-After` when `exception` is a lost database connection, wherever it was raised outside the
    API views' own handler (a middleware, the MCP endpoint): `SERVICE_UNAVAILABLE` in the error envelope under
    /v1/ and on MCP, the marketplace API's short body under /v1/public/, a short page elsewhere."""
    error = database_unreachable(exception)
    if error is None:
        return None
    match = getattr(request, "resolver_match", None)
    if request.path.startswith(PUBLIC_PREFIX):
        response = json_response({"error": error.message}, error.status_code, request)
    elif request.path.startswith("/v1/") or (match and (match.url_name or "").startswith("mcp-")):
        response = json_response(error.body(), error.status_code, request)
    else:
        response = HttpResponse(UNAVAILABLE_PAGE, status=error.status_code, content_type="text/html; charset=utf-8")
    for name, value in error.headers.items():
        response[name] = value
    return response


PUBLIC_NOT_FOUND = {"error": "Not found", "code": "NOT_FOUND"}
NOT_FOUND_PAGE = (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head>'
    "<body><main><h1>Not found</h1><p>There is no page at this address.</p></main></body></html>"
)


class NulCharacterMiddleware:
    """A NUL character in the path or the query string of any address outside the APIs is a 404 before anything
    looks it up: PostgreSQL refuses NUL in text, so a slug, a post or a club looked up with one would be a 500.
    Runs before the website host routing, so site hosts, form pages, the marketplace pages and feeds share it.
    The public marketplace API gets its JSON 404 for a NUL in the path; a NUL in one of its query parameters is
    its 400 naming the parameter, as on the Platform API (`apps.api.views.check_query_params`), whose own dispatch
    answers NUL in its paths and parameters. The other `/v1/` paths (invoice PDF links, the document) never look
    text up."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        path = request.path
        if path.startswith(PUBLIC_PREFIX):
            if "\x00" in path:
                return json_response(dict(PUBLIC_NOT_FOUND), 404, request)
            return self.get_response(request)
        if path.startswith("/v1/") or not _carries_nul(request):
            return self.get_response(request)
        response = HttpResponse(NOT_FOUND_PAGE, status=404, content_type="text/html; charset=utf-8")
        response["Cache-Control"] = "no-store"
        return response


def _carries_nul(request) -> bool:
    if "\x00" in request.path:
        return True
    query = request.META.get("QUERY_STRING", "")
    return "%00" in query or "\x00" in query
