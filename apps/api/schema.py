"""drf-spectacular extensions: every operation states its scope, rate bucket, security and error responses."""

from django.conf import settings
from drf_spectacular.openapi import AutoSchema

from .permissions import NO_SCOPE, required_scope_for, sorted_any_of
from .scopes import ALL_SCOPES

ERROR_REF = {"$ref": "#/components/schemas/Error"}
SCOPE_ERROR_REF = {"$ref": "#/components/schemas/InsufficientScopeError"}


def _json(ref, description):
    return {"description": description, "content": {"application/json": {"schema": ref}}}


class PlatformAutoSchema(AutoSchema):
    def _platform_action(self):
        view = self.view
        if getattr(view, "action_map", None):
            return getattr(view, "action", None)
        return self.method.lower()

    def required_scope(self):
        if not getattr(self.view, "required_scopes", None):
            return None
        return required_scope_for(self.view, self._platform_action())

    def get_auth(self):
        scope = self.required_scope()
        if scope is None:
            return []
        if scope == NO_SCOPE:
            return [{"customerApiAuth": []}, {"platformOAuth": []}]
        scopes = [scope] if isinstance(scope, str) else sorted_any_of(scope)
        return [{"customerApiAuth": []}] + [{"platformOAuth": [s]} for s in scopes]

    def _resolve_path_parameters(self, variables):
        parameters = super()._resolve_path_parameters(variables)
        for parameter in parameters:
            schema = parameter.get("schema", {})
            # Ids are integers (API.md §1); the digits-only lookup regex made them read as strings.
            if schema.get("type") == "string" and schema.get("pattern") == "^[0-9]+$":
                parameter["schema"] = {"type": "integer"}
        return parameters

    def get_operation(self, *args, **kwargs):
        operation = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        scope = self.required_scope()
        if scope is None:
            return operation
        if scope == NO_SCOPE:
            operation["x-required-scope"] = None
        elif isinstance(scope, str):
            operation["x-required-scope"] = scope
        else:
            ordered = sorted_any_of(scope)
            operation["x-required-scope"] = ordered[0]
            operation["x-required-scope-any-of"] = ordered
        bucket = None
        if hasattr(self.view, "rate_buckets"):
            bucket = self.view.rate_buckets.get(self._platform_action())
        operation["x-rate-limit-bucket"] = ["general"] + ([bucket] if bucket else [])
        responses = operation.setdefault("responses", {})
        responses.setdefault("400", _json(ERROR_REF, "Invalid request"))
        responses.setdefault("401", _json(ERROR_REF, "Missing or invalid credential"))
        responses.setdefault(
            "403", _json({"oneOf": [SCOPE_ERROR_REF, ERROR_REF]}, "Missing scope, or plan/organization lock")
        )
        if "{" in self.path:
            responses.setdefault("404", _json(ERROR_REF, "Not found in the caller's organization"))
        responses.setdefault("429", _json(ERROR_REF, "Rate limit exceeded (see Retry-After)"))
        return operation


def only_public_paths(endpoints, **kwargs):
    return [e for e in endpoints if e[0].startswith("/v1/")]


def add_security_schemes(result, generator, request, public):
    components = result.setdefault("components", {})
    components.setdefault("securitySchemes", {}).update(
        {
            "customerApiAuth": {"type": "http", "scheme": "bearer", "description": "Customer API key or OAuth token."},
            "platformOAuth": {
                "type": "oauth2",
                "flows": {
                    "authorizationCode": {
                        "authorizationUrl": f"{settings.AUTH_URL}/oauth/authorize",
                        "tokenUrl": f"{settings.BASE_URL}/v1/mcp/oauth/token",
                        "refreshUrl": f"{settings.BASE_URL}/v1/mcp/oauth/token",
                        "scopes": {s: s for s in ("*",) + ALL_SCOPES},
                    }
                },
            },
        }
    )
    schemas = components.setdefault("schemas", {})
    schemas["Error"] = {
        "type": "object",
        "required": ["error", "message", "code"],
        "properties": {
            "error": {"type": "string"},
            "message": {"type": "string"},
            "code": {"type": "string"},
            "details": {"type": "object", "additionalProperties": True},
        },
    }
    schemas["InsufficientScopeError"] = {
        "type": "object",
        "required": ["error", "requiredScope"],
        "properties": {
            "error": {"type": "string", "enum": ["Insufficient access scope"]},
            "requiredScope": {"type": "string"},
            "anyOf": {"type": "array", "items": {"type": "string"}},
        },
    }
    result["openapi"] = "3.0.0"
    result["servers"] = [{"url": settings.BASE_URL}]
    return result
