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
