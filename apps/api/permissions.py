"""The one scope permission. Each view declares
`required_scopes = {action: scope | {any-of} | AllOf(scope, ...) | NO_SCOPE}`."""

from rest_framework.exceptions import MethodNotAllowed
from rest_framework.permissions import BasePermission

from .exceptions import ApiError, InsufficientScope

NO_SCOPE = "__none__"  # a valid credential is enough (GET /me)


class AllOf(tuple):
    """Every one of these scopes is needed (e.g. a calendar feed lists an instructor's classes: `instructors:read`
    and `classes:read`). A credential missing some gets the short 403 naming the first missing one."""

    def __new__(cls, *scopes: str):
        return super().__new__(cls, scopes)


# Order the any-of rule reports its `requiredScope` in; the first named scope is reported.
ANY_OF_ORDER = ("plans:read", "products:read", "transactions:read")


def view_action(view, request) -> str | None:
    """The action name of a viewset, or the lower-case method for plain API views."""
    if getattr(view, "action_map", None) is not None:
        if request.method == "OPTIONS":  # DRF names it `metadata`; no CORS or metadata here: 405 like on API views
            return None
        return getattr(view, "action", None)
    method = request.method.lower()
    if method not in getattr(view, "http_method_names", ()) or not hasattr(view, method):
        return None
    if method == "head" and "head" not in (getattr(view, "required_scopes", None) or {}):
        return "get"  # Django answers HEAD with the GET handler; it needs the GET scope, not a refusal
    return method


def required_scope_for(view, action):
    return (getattr(view, "required_scopes", None) or {}).get(action)


def sorted_any_of(scopes) -> list[str]:
    return sorted(scopes, key=lambda s: (ANY_OF_ORDER.index(s) if s in ANY_OF_ORDER else 99, s))


class ScopePermission(BasePermission):
    """Deny by default: an action without an entry in `required_scopes` is refused."""

    def has_permission(self, request, view):
        action = view_action(view, request)
        if action is None:
            raise MethodNotAllowed(request.method)
        required = required_scope_for(view, action)
        if required is None:
            raise ApiError("This action is not available to API credentials.", code="FORBIDDEN", status=403)
        if required == NO_SCOPE:
            return True
        credential = request.auth
        if isinstance(required, str):
            if not credential.has_scope(required):
                raise InsufficientScope(required)
            return True
        if isinstance(required, AllOf):
            missing = [s for s in required if not credential.has_scope(s)]
            if missing:
                raise InsufficientScope(missing[0])
            return True
        if not any(credential.has_scope(s) for s in required):
            ordered = sorted_any_of(required)
            raise InsufficientScope(ordered[0], ordered)
        return True
