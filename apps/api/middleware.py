"""Request ids on every response, and JSON errors for Django-level failures under /v1/."""

import logging
import re
import uuid

from django.http import HttpResponse

from .renderers import dumps

logger = logging.getLogger("apps.api")
_INCOMING_ID = re.compile(r"^[A-Za-z0-9._-]{1,100}$")
# The public marketplace API has its own, shorter error bodies (`{error, details?}`), without a trace.
PUBLIC_PREFIX = "/v1/public/"
PUBLIC_INTERNAL_ERROR = {"error": "Internal error"}


def json_response(body: dict, status: int, request=None) -> HttpResponse:
    response = HttpResponse(dumps(body), status=status, content_type="application/json")
    if request is not None and getattr(request, "request_id", None):
        response["X-Request-Id"] = request.request_id
    return response


class RequestIdMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        incoming = request.headers.get("X-Request-Id", "")
        request.request_id = incoming if _INCOMING_ID.match(incoming) else uuid.uuid4().hex
        response = self.get_response(request)
        response["X-Request-Id"] = request.request_id
        return response

    def process_exception(self, request, exception):
        if not request.path.startswith("/v1/"):
            return None
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


PUBLIC_NOT_FOUND = {"error": "Not found", "code": "NOT_FOUND"}
NOT_FOUND_PAGE = (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head>'
    "<body><main><h1>Not found</h1><p>There is no page at this address.</p></main></body></html>"
)


class NulCharacterMiddleware:
    """A NUL character in the path or the query string of any address outside the Platform API is a 404 before
    anything looks it up: PostgreSQL refuses NUL in text, so a slug, a post or a club looked up with one would be
    a 500. (The Platform API's own dispatch answers NUL in its paths and parameters with its error envelope; the
    other `/v1/` paths, the invoice PDF links and the document, never look text up.)
    Runs before the website host routing, so site hosts, form pages, the marketplace pages, feeds and the public
    marketplace API share it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        path = request.path
        if (path.startswith("/v1/") and not path.startswith(PUBLIC_PREFIX)) or not _carries_nul(request):
            return self.get_response(request)
        if path.startswith(PUBLIC_PREFIX):
            return json_response(dict(PUBLIC_NOT_FOUND), 404, request)
        response = HttpResponse(NOT_FOUND_PAGE, status=404, content_type="text/html; charset=utf-8")
        response["Cache-Control"] = "no-store"
        return response


def _carries_nul(request) -> bool:
    if "\x00" in request.path:
        return True
    query = request.META.get("QUERY_STRING", "")
    return "%00" in query or "\x00" in query
