"""The error envelope `{error, message, code, details?}` and the one exception handler that produces it.

Services raise `ApiError` subclasses (or `ApiError(...)` with a code); views never build error bodies by hand.
"""

import logging
from http import HTTPStatus

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import InterfaceError, OperationalError
from django.http import Http404
from rest_framework import exceptions as drf
from rest_framework.response import Response

logger = logging.getLogger("apps.api")


def reason_phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


def error_body(status: int, code: str, message: str, details: dict | None = None) -> dict:
    body = {"error": reason_phrase(status), "message": message, "code": code}
    if details:
        body["details"] = details
    return body


class ApiError(Exception):
    """A failure with a stable code. Subclasses fix status and code; instances may override both."""

    status_code = 400
    code = "VALIDATION_ERROR"
    default_message = "The request is invalid."

    def __init__(self, message=None, *, code=None, status=None, details=None, headers=None):
        self.message = message or self.default_message
        if code:
            self.code = code
        if status:
            self.status_code = status
        self.details = details or None
        self.headers = headers or {}
        super().__init__(self.message)

    def body(self) -> dict:
        return error_body(self.status_code, self.code, self.message, self.details)


class ValidationFailed(ApiError):
    def __init__(self, fields: dict, message="The request is invalid.", **kwargs):
        super().__init__(message, details={"fields": fields}, **kwargs)


class FieldNotWritable(ApiError):
    code = "FIELD_NOT_WRITABLE"

    def __init__(self, field: str, message=None):
        super().__init__(message or f"`{field}` is not writable.", details={"field": field})


class UnknownField(ApiError):
    code = "UNKNOWN_FIELD"

    def __init__(self, field: str, message=None):
        super().__init__(message or f"Unknown field `{field}`.", details={"field": field})


class Unauthenticated(ApiError):
    status_code = 401
    code = "UNAUTHENTICATED"
    default_message = "A valid bearer credential is required."


class PlanFeatureLocked(ApiError):
    status_code = 403
    code = "PLAN_FEATURE_LOCKED"
    default_message = "API access is not available on the organization's current plan."


class OrganizationNotActive(ApiError):
    status_code = 403
    code = "ORGANIZATION_NOT_ACTIVE"
    default_message = "The organization is not active."


class NotFound(ApiError):
    status_code = 404
    code = "NOT_FOUND"
    default_message = "The requested resource was not found."


class Conflict(ApiError):
    status_code = 409
    code = "CONFLICT"
    default_message = "The request conflicts with the current state."


class InvalidStateTransition(Conflict):
    code = "INVALID_STATE_TRANSITION"

    def __init__(self, current_status: str, message=None):
        super().__init__(
            message or f"Not allowed while the status is `{current_status}`.",
            details={"currentStatus": current_status},
        )


class DuplicateValue(Conflict):
    code = "DUPLICATE_VALUE"

    def __init__(self, field: str, existing_id=None, message=None):
        details = {"field": field}
        if existing_id is not None:
            details["existingId"] = existing_id
        super().__init__(message or f"`{field}` is already taken.", details=details)


class ResourceInUse(Conflict):
    """A row other rows still refer to: `references` counts them by kind (`{"memberships": 3}`)."""

    code = "RESOURCE_IN_USE"

    def __init__(self, message: str, references: dict | None = None):
        super().__init__(message, details={"references": references} if references else None)


class RateLimited(ApiError):
    status_code = 429
    code = "RATE_LIMITED"
    default_message = "Rate limit exceeded."


class ServiceUnavailable(ApiError):
    status_code = 503
    code = "SERVICE_UNAVAILABLE"
    default_message = "The database cannot be reached; retry after the number of seconds in Retry-After."
    retry_after_seconds = 5

    def __init__(self):
        super().__init__(headers={"Retry-After": str(self.retry_after_seconds)})


# SQLSTATEs of a lost connection: class 08 (connection exception), and the server shutting down, crashing or
# starting (57P01-57P03). psycopg's client-side connection failures (refused, closed, reset) carry no SQLSTATE.
LOST_CONNECTION_STATES = ("08", "57P01", "57P02", "57P03")


def lost_connection(exc) -> bool:
    """Whether `exc` is the database being unreachable (down, restarting, connection cut), not a query's own
    failure (a timeout or a deadlock)."""
    if isinstance(exc, InterfaceError):
        return True
    if isinstance(exc, OperationalError):
        state = getattr(exc.__cause__, "sqlstate", None)
        return state is None or state.startswith(LOST_CONNECTION_STATES)
    return False


def database_unreachable(exc) -> ServiceUnavailable | None:
    """The 503 for a database that cannot be reached (`lost_connection`), logged as an error without a trace; None
    for any other failure, including a query's own (a timeout or a deadlock stays a 500)."""
    if not lost_connection(exc):
        return None
    logger.error("Database unreachable, answering 503: %r", exc)
    return ServiceUnavailable()


class InsufficientScope(Exception):
    """403 with the spec's short body, the one error without `code`."""

    def __init__(self, required_scope: str, any_of: list[str] | None = None):
        self.required_scope = required_scope
        self.any_of = any_of
        super().__init__(required_scope)

    def body(self) -> dict:
        body = {"error": "Insufficient access scope", "requiredScope": self.required_scope}
        if self.any_of:
            body["anyOf"] = list(self.any_of)
        return body


def _flatten_drf_errors(detail) -> dict:
    """DRF's nested error detail as `{field: [messages]}`; nested fields use dotted paths."""
    fields: dict[str, list[str]] = {}

    def walk(prefix, value):
        if isinstance(value, dict):
            for key, sub in value.items():
                walk(f"{prefix}.{key}" if prefix else str(key), sub)
        elif isinstance(value, list):
            if all(not isinstance(v, dict | list) for v in value):
                fields.setdefault(prefix or "nonFieldErrors", []).extend(str(v) for v in value)
            else:
                for i, sub in enumerate(value):
                    walk(f"{prefix}[{i}]", sub)
        else:
            fields.setdefault(prefix or "nonFieldErrors", []).append(str(value))

    walk("", detail)
    renamed: dict[str, list[str]] = {}
    for key, messages in fields.items():
        # DRF's `non_field_errors` of a nested object is an error of that object's field as a whole.
        if key == "non_field_errors":
            key = "nonFieldErrors"
        elif key.endswith(".non_field_errors"):
            key = key.removesuffix(".non_field_errors")
        renamed.setdefault(key, []).extend(messages)
    return renamed


def to_api_error(exc) -> ApiError | None:
    """The `ApiError` a DRF or Django exception stands for; None for an unexpected failure (a 500)."""
    if isinstance(exc, ApiError):
        return exc
    if isinstance(exc, drf.ValidationError):
        return ValidationFailed(_flatten_drf_errors(exc.detail))
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"nonFieldErrors": exc.messages}
        return ValidationFailed(_flatten_drf_errors(detail))
    if isinstance(exc, drf.ParseError):
        return ApiError("The request body is not valid JSON.", code="INVALID_JSON", status=400)
    if isinstance(exc, drf.UnsupportedMediaType):
        return ApiError("Request bodies must be JSON (application/json).", code="UNSUPPORTED_MEDIA_TYPE", status=415)
    if isinstance(exc, drf.NotAuthenticated | drf.AuthenticationFailed):
        return Unauthenticated()
    if isinstance(exc, drf.MethodNotAllowed):
        return ApiError("The method is not allowed on this path.", code="METHOD_NOT_ALLOWED", status=405)
    if isinstance(exc, Http404 | drf.NotFound):
        return NotFound()
    if isinstance(exc, drf.PermissionDenied | DjangoPermissionDenied):
        return ApiError("You do not have permission to perform this action.", code="FORBIDDEN", status=403)
    if isinstance(exc, drf.Throttled):
        return RateLimited()
    if isinstance(exc, drf.NotAcceptable):
        return ApiError("Responses are JSON only.", code="NOT_ACCEPTABLE", status=406)
    if isinstance(exc, drf.APIException):
        return ApiError(str(exc.detail), code=exc.default_code.upper(), status=exc.status_code)
    return database_unreachable(exc)


def exception_handler(exc, context):
    request = context.get("request")
    from rest_framework.views import set_rollback  # late: rest_framework.views imports this module's settings

    set_rollback()  # an atomic request (ATOMIC_REQUESTS) must not commit the half-done work of a failed one
    if isinstance(exc, InsufficientScope):
        return Response(exc.body(), status=403)
    error = to_api_error(exc)
    if error is None:
        request_id = getattr(getattr(request, "_request", request), "request_id", None)
        logger.exception("Unhandled error on %s (request %s)", getattr(request, "path", "?"), request_id)
        error = ApiError(
            "An unexpected error occurred.", code="INTERNAL_ERROR", status=500, details={"requestId": request_id}
        )
    response = Response(error.body(), status=error.status_code)
    for name, value in error.headers.items():
        response[name] = value
    if isinstance(exc, drf.APIException):
        if getattr(exc, "auth_header", None):
            response["WWW-Authenticate"] = exc.auth_header
        if getattr(exc, "wait", None):
            response["Retry-After"] = str(int(exc.wait))
    if error.status_code == 401 and "WWW-Authenticate" not in response:
        response["WWW-Authenticate"] = "Bearer"
    return response
