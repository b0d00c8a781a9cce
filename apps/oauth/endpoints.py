"""The OAuth endpoints that clients call directly: registration (RFC 7591), token (RFC 6749), revocation (RFC 7009).

Every answer is JSON with the RFC error body `{error, error_description}`, never HTML, whatever the input: bodies
are capped at 64 KiB (413), parsed as JSON or form encoding (anything else is a 400), every value must be a short
string without control characters, and each client address gets 20 requests a minute (429). A refused request
writes nothing.
"""

import functools
import json
import logging

import orjson
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import HttpResponse, JsonResponse, QueryDict
from django.views.decorators.csrf import csrf_exempt
from oauth2_provider.oauth2_backends import OAuthLibCore, get_oauthlib_core

from apps.api import bodylimit, public_limits

from . import registration

logger = logging.getLogger("apps.oauth")

MAX_BODY_BYTES = 64 * 1024
MAX_PARAMETERS = 40
MAX_VALUE_LENGTH = 4096
REPEATABLE = {"resource"}  # RFC 8707 repeats `resource`; other repeated token parameters are refused by oauthlib


class PlatformOAuthLibCore(OAuthLibCore):
    """Reads the token request's parameters from the body this module parsed (JSON or form), not `request.POST`."""

    def extract_body(self, request):
        params = getattr(request, "oauth_params", None)
        return params if params is not None else super().extract_body(request)


class BadRequest(Exception):
    def __init__(self, error: str, description: str, status: int = 400, headers: dict | None = None):
        super().__init__(description)
        self.error, self.description, self.status, self.headers = error, description, status, headers or {}


def error_response(error: str, description: str, status: int = 400, headers: dict | None = None) -> JsonResponse:
    response = JsonResponse({"error": error, "error_description": description}, status=status)
    for name, value in (headers or {}).items():
        response[name] = value
    response["Cache-Control"] = "no-store"
    return response


def _media_type(request) -> str:
    return (request.META.get("CONTENT_TYPE") or "").split(";", 1)[0].strip().lower()


def _check_value(name: str, value, error: str):
    if not isinstance(value, str):
        raise BadRequest(error, f"{name} must be a string.")
    if len(value) > MAX_VALUE_LENGTH:
        raise BadRequest(error, f"{name} is longer than {MAX_VALUE_LENGTH} characters.")
    if any(ord(c) < 0x20 and c not in "\t" or ord(c) == 0x7F for c in value):
        raise BadRequest(error, f"{name} contains control characters.")


def read_body(request, error: str) -> tuple[str, object]:
    """`("json", object)` or `("form", QueryDict)` of the request body, or BadRequest."""
    ratelimited(request, error)
    try:
        bodylimit.enforce(request, MAX_BODY_BYTES)
    except bodylimit.PayloadTooLarge:
        raise BadRequest(error, f"The request body is larger than {MAX_BODY_BYTES} bytes.", status=413) from None
    media_type = _media_type(request)
    try:
        raw = request.body
    except RequestDataTooBig:
        raise BadRequest(error, f"The request body is larger than {MAX_BODY_BYTES} bytes.", status=413) from None
    if media_type == "application/json":
        try:  # orjson, as every other JSON body: it refuses what json.loads lets through (NaN, lone surrogates)
            data = orjson.loads(raw)
        except ValueError:
            raise BadRequest(error, "The body is not valid JSON.") from None
        return "json", data
    if media_type == "application/x-www-form-urlencoded":
        try:
            text = raw.decode("utf-8")
            form = QueryDict(text, encoding="utf-8")
        except (UnicodeDecodeError, TooManyFieldsSent, ValueError):
            raise BadRequest(error, "The form body could not be read.") from None
        if len(form) > MAX_PARAMETERS:
            raise BadRequest(error, f"At most {MAX_PARAMETERS} parameters are accepted.")
        return "form", form
    raise BadRequest(error, "Send the body as application/json or application/x-www-form-urlencoded.")


def ratelimited(request, error: str):
    state, refused = public_limits.consume(request, [public_limits.OAUTH])
    if refused:
        raise BadRequest(
            "temporarily_unavailable",
            f"Too many requests from this address; retry in {state.reset} seconds.",
            status=429,
            headers={"Retry-After": str(state.reset)},
        )


CORS_HEADERS = {
    # Browser-based clients (the MCP Inspector, web agents) call these endpoints cross-origin. They take no cookies
    # (a client authenticates with its id, secret and the PKCE verifier), so any origin may call them.
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": "POST, OPTIONS",
    "Access-Control-Allow-Headers": "Content-Type, Authorization",
    "Access-Control-Max-Age": "600",
}


def cors(view):
    """Answers the CORS preflight and marks every answer readable from any origin."""

    def wrapped(request, *args, **kwargs):
        if request.method == "OPTIONS":
            response = HttpResponse(status=204)
        else:
            response = view(request, *args, **kwargs)
        for name, value in CORS_HEADERS.items():
            response[name] = value
        return response

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return csrf_exempt(wrapped)


def post_endpoint(error: str):
    """Every endpoint here: CORS, POST only (405), the body read by `read_body` (413, 429, 400) and handed to the
    view as `(request, kind, body)`, and a BadRequest the view raises answered as the RFC error body `error`."""

    def decorate(view):
        @functools.wraps(view)
        def wrapped(request):
            if request.method != "POST":
                response = error_response(error, "Use POST.", status=405)
                response["Allow"] = "POST"
                return response
            try:
                return view(request, *read_body(request, error))
            except BadRequest as exc:
                return error_response(exc.error, exc.description, exc.status, exc.headers)

        return cors(wrapped)

    return decorate


# --- registration --------------------------------------------------------------------------------------------
FORM_LISTS = {"redirect_uris", "grant_types", "response_types"}


def _registration_data(kind, body) -> dict:
    if kind == "form":
        data = {}
        for key, values in body.lists():
            data[key] = values if key in FORM_LISTS else values[-1]
        return data
    if not isinstance(body, dict):
        raise BadRequest("invalid_client_metadata", "The body must be a JSON object of client metadata.")
    return body


@post_endpoint("invalid_client_metadata")
def register_view(request, kind, body):
    try:
        created = registration.register(_registration_data(kind, body))
    except registration.RegistrationError as exc:
        return error_response(exc.error, exc.description)
    response = JsonResponse(created, status=201)
    response["Cache-Control"] = "no-store"
    return response


# --- token and revocation ------------------------------------------------------------------------------------
def _token_params(kind, body) -> list[tuple[str, str]]:
    if kind == "json":
        if not isinstance(body, dict):
            raise BadRequest("invalid_request", "The body must be a JSON object of token request parameters.")
        if len(body) > MAX_PARAMETERS:
            raise BadRequest("invalid_request", f"At most {MAX_PARAMETERS} parameters are accepted.")
        params = []
        for key, value in body.items():
            values = value if key in REPEATABLE and isinstance(value, list) else [value]
            for item in values:
                _check_value(key, item, "invalid_request")
                params.append((key, item))
        return params
    params = []
    for key, values in body.lists():
        _check_value("parameter name", key, "invalid_request")
        if len(values) > 1 and key not in REPEATABLE:
            raise BadRequest("invalid_request", f"The parameter {key} is repeated.")
        for value in values:
            _check_value(key, value, "invalid_request")
            params.append((key, value))
    return params


def _oauthlib_response(headers, body, status) -> JsonResponse:
    try:
        data = json.loads(body) if body else {}
    except ValueError:
        data = {"error": "server_error", "error_description": "The token endpoint could not answer."}
        status = 500
    if status >= 400 and "error_description" not in data:
        data["error_description"] = {
            "invalid_client": "The client is unknown, or its authentication failed.",
            "invalid_grant": "The code or refresh token is invalid, expired, used or revoked, or the PKCE verifier "
            "or redirect URI does not match.",
            "unsupported_grant_type": "Only authorization_code and refresh_token grants are offered.",
            "invalid_scope": "A requested scope is unknown or was not granted.",
            "invalid_request": "The request is missing a parameter or has an invalid one.",
        }.get(data.get("error"), "The request was refused.")
    response = JsonResponse(data, status=status)
    for name, value in (headers or {}).items():
        if name.lower() in ("www-authenticate", "retry-after"):
            response[name] = value
    response["Cache-Control"] = "no-store"
    response["Pragma"] = "no-cache"
    return response


def _run_oauthlib(request, params, create):
    request.oauth_params = params
    try:
        _, headers, body, status = create(request)
    except Exception:  # oauthlib answers errors itself; anything else is a bug, answered as JSON, never HTML
        logger.exception("OAuth endpoint failed")
        return error_response("server_error", "The request could not be processed.", status=500)
    return _oauthlib_response(headers, body, status)


def _oauthlib_answer(request, kind, body, required: str, answer: str):
    """The body read as token parameters, `required` present, then oauthlib's `answer` method."""
    params = _token_params(kind, body)
    if required not in {key for key, _ in params}:
        raise BadRequest("invalid_request", f"{required} is required.")
    return _run_oauthlib(request, params, getattr(get_oauthlib_core(), answer))


@post_endpoint("invalid_request")
def token_view(request, kind, body):
    return _oauthlib_answer(request, kind, body, "grant_type", "create_token_response")


@post_endpoint("invalid_request")
def revoke_view(request, kind, body):
    response = _oauthlib_answer(request, kind, body, "token", "create_revocation_response")
    if response.status_code == 200:
        return JsonResponse({}, status=200)
    return response
