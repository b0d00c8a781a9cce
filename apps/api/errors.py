"""Django-level 404/500 handlers: JSON under /v1/, Django's defaults elsewhere."""

import sys

from django.views import defaults

from .middleware import PUBLIC_INTERNAL_ERROR, PUBLIC_PREFIX, database_unreachable_answer, json_response


def handler404(request, exception=None):
    if request.path.startswith(PUBLIC_PREFIX):
        return json_response({"error": "Not found", "code": "NOT_FOUND"}, 404, request)
    if request.path.startswith("/v1/"):
        return json_response(
            {"error": "Not Found", "message": "No route serves this path.", "code": "NOT_FOUND"}, 404, request
        )
    return defaults.page_not_found(request, exception)


def handler500(request):
    # Django calls this inside its `except`: the failure is the current exception.
    unavailable = database_unreachable_answer(request, sys.exc_info()[1])
    if unavailable is not None:
        return unavailable
    if request.path.startswith(PUBLIC_PREFIX):
        return json_response(PUBLIC_INTERNAL_ERROR, 500, request)
    if request.path.startswith("/v1/"):
        return json_response(
            {
                "error": "Internal Server Error",
                "message": "An unexpected error occurred.",
                "code": "INTERNAL_ERROR",
                "details": {"requestId": getattr(request, "request_id", None)},
            },
            500,
            request,
        )
    return defaults.server_error(request)
