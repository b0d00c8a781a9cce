"""drf-spectacular extensions: every operation states its scope, rate bucket, security and error responses."""

import inspect

from django.conf import settings
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view

from .permissions import NO_SCOPE, AllOf, required_scope_for, sorted_any_of
from .scopes import ALL_SCOPES, describe

ERROR_REF = {"$ref": "#/components/schemas/Error"}
SCOPE_ERROR_REF = {"$ref": "#/components/schemas/InsufficientScopeError"}

# Responses every write may give besides its own: idempotency and media type.
WRITE_ERRORS = {
    "post": {
        "409": "Business rule conflict, or the same Idempotency-Key is still in progress",
        "413": "Request body larger than the configured maximum (1 MiB by default)",
        "415": "Content-Type is not application/json",
        "422": "Idempotency-Key reused with a different request",
    },
    "patch": {
        "409": "Business rule conflict",
        "413": "Request body larger than the configured maximum (1 MiB by default)",
        "415": "Content-Type is not application/json",
    },
    "delete": {"409": "Business rule conflict"},
}

IDEMPOTENCY_PARAMETER = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": "Replays the stored 2xx answer for 24 h when the same request is repeated with the same credential.",
    "schema": {
        "type": "string",
        "minLength": 1,
        "maxLength": 255,
        "pattern": "^[\\x21-\\x7E]([\\x20-\\x7E]*[\\x21-\\x7E])?$",
    },
}

DEFAULT_DESCRIPTIONS = {"200": "OK", "201": "Created", "204": "No content"}

LOCATION_HEADER = {"Location": {"description": "URL of the created resource", "schema": {"type": "string"}}}


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
        if isinstance(scope, AllOf):  # one requirement holding every scope: all of them are needed
            return [{"customerApiAuth": []}, {"platformOAuth": list(scope)}]
        scopes = [scope] if isinstance(scope, str) else sorted_any_of(scope)
        return [{"customerApiAuth": []}] + [{"platformOAuth": [s]} for s in scopes]

    def _resolve_path_parameters(self, variables):
        parameters = super()._resolve_path_parameters(variables)
        for parameter in parameters:
            schema = parameter.get("schema", {})
            # Ids are integers; the digits-only lookup regex made them read as strings.
            if schema.get("type") == "string" and schema.get("pattern") == "^[0-9]+$":
                parameter["schema"] = {"type": "integer"}
        return parameters

    def get_request_serializer(self):
        """A create's body is the view's `write_serializer`, an update's its `update_serializer` (else the
        `write_serializer`, made partial by drf-spectacular for PATCH): the serializers the requests are validated
        with, named once on the view."""
        action = self._platform_action()
        write = getattr(self.view, "write_serializer", None)
        if action == "create" and write is not None:
            return write
        update = getattr(self.view, "update_serializer", None) or write
        if action == "partial_update" and update is not None:
            return update
        return super().get_request_serializer()

    def get_description(self):
        """The action's docstring, else the view's own: never a docstring the view inherits from the shared bases
        in `apps.api` (they describe the plumbing, not the operation)."""
        view_class = self.view.__class__
        action = getattr(view_class, getattr(self.view, "action", None) or self.method.lower(), None)
        if action is not None and not getattr(action, "__module__", "").startswith("apps.api."):
            doc = inspect.getdoc(action)
            if doc:
                return doc
        own_doc = view_class.__dict__.get("__doc__")
        return inspect.cleandoc(own_doc) if own_doc else ""

    def selection_parameters(self) -> list:
        """Query parameters that pick the row(s) the operation works on, declared once on the view as
        `selection_parameters` (e.g. the website builder's `websiteId`): documented on each of its operations,
        with the 404 a value naming no row of the caller's organization gets."""
        return list(getattr(self.view, "selection_parameters", ()))

    def get_override_parameters(self):
        """A list's window and ordering parameters come from its FilterSet, like its filters; a view's selection
        parameters are on every one of its operations."""
        parameters = list(super().get_override_parameters()) + self.selection_parameters()
        filterset = getattr(self.view, "filterset_class", None)
        if filterset is not None and hasattr(filterset, "extra_parameters") and self._is_list_view():
            parameters += filterset.extra_parameters()
        return parameters

    def get_operation(self, *args, **kwargs):
        operation = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        scope = self.required_scope()
        if scope is None:
            # Public: said explicitly, so no reader (or linter) takes a missing requirement for a forgotten one.
            operation.setdefault("security", [])
            return operation
        method = self.method.lower()
        if method == "post" and not any(
            p.get("name") == IDEMPOTENCY_PARAMETER["name"] for p in operation.get("parameters", [])
        ):
            operation.setdefault("parameters", []).append(dict(IDEMPOTENCY_PARAMETER))
        if scope == NO_SCOPE:
            operation["x-required-scope"] = None
        elif isinstance(scope, str):
            operation["x-required-scope"] = scope
        elif isinstance(scope, AllOf):
            operation["x-required-scope"] = {"allOf": list(scope)}
        else:
            # Any one of several scopes: the same list, in the same order, as the security requirement's
            # `platformOAuth` alternatives (naming only the first would tell a client too little).
            operation["x-required-scope"] = sorted_any_of(scope)
        bucket = getattr(self.view, "rate_buckets", {}).get(self._platform_action())
        operation["x-rate-limit-bucket"] = ["general"] + ([bucket] if bucket else [])
        responses = operation.setdefault("responses", {})
        responses.setdefault("400", _json(ERROR_REF, "Invalid request"))
        responses.setdefault("401", _json(ERROR_REF, "Missing or invalid credential"))
        responses.setdefault(
            "403", _json({"oneOf": [SCOPE_ERROR_REF, ERROR_REF]}, "Missing scope, or plan/organization lock")
        )
        selectors = [f"`?{parameter.name}=`" for parameter in self.selection_parameters()]
        if selectors:
            described = "The path, or " + " or ".join(selectors) + ", names nothing in the caller's organization"
            responses.setdefault("404", _json(ERROR_REF, described))
        elif "{" in self.path:
            responses.setdefault("404", _json(ERROR_REF, "Not found in the caller's organization"))
        for status, description in WRITE_ERRORS.get(method, {}).items():
            responses.setdefault(status, _json(ERROR_REF, description))
        responses.setdefault(
            "429", _json(ERROR_REF, "Rate limit exceeded, or too many failed authentications (see Retry-After)")
        )
        responses.setdefault(
            "503", _json(ERROR_REF, "The database is unreachable (SERVICE_UNAVAILABLE, see Retry-After)")
        )
        for status, response in responses.items():
            # An error documented by description only still answers with the error body.
            if status.startswith(("4", "5")) and not response.get("content"):
                response["content"] = {"application/json": {"schema": ERROR_REF}}
            if not response.get("description"):
                response["description"] = DEFAULT_DESCRIPTIONS.get(status, "")
        if "201" in responses:
            responses["201"].setdefault("headers", {}).update(LOCATION_HEADER)
        operation["responses"] = dict(sorted(responses.items()))
        return operation


DELETED = OpenApiResponse(description="Deleted")


def _indefinite(noun: str) -> str:
    return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun}"


def crud_schema_view(
    tool_prefix,
    *,
    tags=None,
    parameters=None,
    summaries=None,
    descriptions=None,
    **overrides,
):
    """The `extend_schema_view` of a standard viewset: `<prefix>_list`, `_get`, `_create`, `_update`, `_delete`
    (204 "Deleted"), for the actions the viewset has, summarised "List <verbose_name_plural>", "Get a
    <verbose_name>", "Create a ...", "Update a ..." and "Delete a ..." (the viewset's model) unless `summaries` says
    more. Request bodies are the viewset's `write_serializer` and `update_serializer` (read by
    `PlatformAutoSchema.get_request_serializer`); response bodies are its `resource` (a list's items its
    `list_resource`, if any). `tags` are every operation's of the viewset. `parameters`, `summaries` and
    `descriptions` are keyed by action; `overrides` are further actions' `extend_schema(...)`."""

    def decorate(viewset):
        body = viewset.resource.serializer
        list_body = (getattr(viewset, "list_resource", None) or viewset.resource).serializer
        standard = {
            "list": {"operation_id": f"{tool_prefix}_list", "responses": list_body(many=True)},
            "retrieve": {"operation_id": f"{tool_prefix}_get", "responses": body},
            "create": {"operation_id": f"{tool_prefix}_create", "responses": {201: body}},
            "partial_update": {"operation_id": f"{tool_prefix}_update", "responses": body},
            "destroy": {"operation_id": f"{tool_prefix}_delete", "responses": {204: DELETED}},
        }
        standard = {
            action: arguments
            for action, arguments in standard.items()
            if hasattr(viewset, action) and action not in overrides
        }
        model_meta = viewset.queryset.model._meta
        derived = {
            "list": f"List {model_meta.verbose_name_plural}",
            "retrieve": f"Get {_indefinite(str(model_meta.verbose_name))}",
            "create": f"Create {_indefinite(str(model_meta.verbose_name))}",
            "partial_update": f"Update {_indefinite(str(model_meta.verbose_name))}",
            "destroy": f"Delete {_indefinite(str(model_meta.verbose_name))}",
        }
        for action, arguments in standard.items():
            arguments["summary"] = derived[action]
            for name, per_action in (("parameters", parameters), ("summary", summaries), ("description", descriptions)):
                if per_action and action in per_action:
                    arguments[name] = per_action[action]
        if tags is not None:
            viewset = extend_schema(tags=tags)(viewset)
        return extend_schema_view(
            **{action: extend_schema(**arguments) for action, arguments in standard.items()}, **overrides
        )(viewset)

    return decorate


def only_public_paths(endpoints, **kwargs):
    return [e for e in endpoints if e[0].startswith("/v1/")]


def null_branch(kind: str) -> dict:
    """The "or null" alternative: `nullable` next to a `type`, as OAS 3.0.3 defines it (and as the linters require)."""
    return {"type": kind, "nullable": True, "enum": [None]}


def _resolved(branch: dict, schemas: dict) -> dict:
    if "$ref" in branch:
        return schemas.get(branch["$ref"].rsplit("/", 1)[-1], {})
    return branch


def _typed_nullables(node, schemas):
    """`nullable` only widens a `type` in the same schema object (OAS 3.0.3), so drf-spectacular's `{allOf: [$ref],
    nullable: true}` means "not null" to strict validators, and a `nullable` beside `oneOf` with no `type` is
    ambiguous to linters and client generators. Every such wrapper becomes its branches plus a typed null branch
    (`{type, nullable: true, enum: [null]}`, the branches' own type): one spelling every validator, linter and
    generator reads as "this or null"."""
    if isinstance(node, list):
        return [_typed_nullables(item, schemas) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _typed_nullables(value, schemas) for key, value in node.items()}
    if node.get("nullable") is not True or "type" in node:
        return node
    for keyword in ("allOf", "oneOf", "anyOf"):
        branches = node.get(keyword)
        if not isinstance(branches, list) or not branches:
            continue
        if keyword == "allOf" and len(branches) > 1:
            return node  # an intersection: not produced by the API's serializers; the linter test would report it
        resolved = [_resolved(branch, schemas) for branch in branches]
        rest = {k: v for k, v in node.items() if k not in (keyword, "nullable")}
        if any(b.get("enum") == [None] or b.get("nullable") is True for b in resolved):
            return {**rest, "oneOf" if keyword == "allOf" else keyword: branches}  # null is already a branch
        kinds = [b.get("type") for b in resolved if b.get("type")]
        kind = kinds[0] if kinds and all(k == kinds[0] for k in kinds) else "object"
        return {**rest, "oneOf" if keyword == "allOf" else keyword: [*branches, null_branch(kind)]}
    return node


def _described_operations(paths):
    """Every operation has a description (the linters' rule, and what a reader of /v1/docs looks for): an operation
    without its own docstring gets one derived from what the document already states about it — its summary,
    the scope it requires and its rate buckets."""
    for item in paths.values():
        for operation in item.values():
            if not isinstance(operation, dict) or operation.get("description"):
                continue
            summary = (operation.get("summary") or operation.get("operationId", "")).rstrip(".")
            parts = [f"{summary}."]
            if "x-required-scope" in operation:
                scope = operation["x-required-scope"]
                if scope is None:
                    parts.append("Any valid credential of the organization may call it.")
                elif isinstance(scope, str):
                    parts.append(f"Requires the `{scope}` scope.")
                elif isinstance(scope, dict):
                    parts.append("Requires all of the scopes " + ", ".join(f"`{s}`" for s in scope["allOf"]) + ".")
                else:
                    parts.append("Requires any one of the scopes " + ", ".join(f"`{s}`" for s in scope) + ".")
            elif operation.get("security") == []:
                parts.append("Public: no credential is needed.")
            buckets = operation.get("x-rate-limit-bucket")
            if buckets:
                parts.append("Counts against the rate buckets " + ", ".join(f"`{b}`" for b in buckets) + ".")
            operation["description"] = " ".join(parts)


def _declared_tags(result):
    """Every tag an operation uses is declared, in order of first use, described by the operations it groups."""
    declared = {tag["name"]: tag for tag in result.get("tags", [])}
    grouped: dict[str, list[str]] = {}
    for item in result.get("paths", {}).values():
        for operation in item.values():
            if isinstance(operation, dict):
                for tag in operation.get("tags", []):
                    grouped.setdefault(tag, []).append(operation.get("summary") or operation.get("operationId", ""))
    tags = []
    for name, summaries in grouped.items():
        tag = dict(declared.get(name, {"name": name}))
        if not tag.get("description"):
            listed = "; ".join(summary[:1].lower() + summary[1:] for summary in summaries)
            tag["description"] = f"Operations: {listed}."
        tags.append(tag)
    tags += [tag for name, tag in declared.items() if name not in grouped]
    result["tags"] = tags


def add_security_schemes(result, generator, request, public):
    raw_schemas = result.setdefault("components", {}).get("schemas", {})
    result["paths"] = _typed_nullables(result.get("paths", {}), raw_schemas)
    result["components"]["schemas"] = _typed_nullables(raw_schemas, raw_schemas)
    _described_operations(result["paths"])
    _declared_tags(result)
    result["info"].setdefault(
        "contact", {"name": settings.SPECTACULAR_SETTINGS["TITLE"], "url": f"{settings.BASE_URL}/v1/docs"}
    )
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
                        "scopes": {s: describe(s) for s in ("*",) + ALL_SCOPES},
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
