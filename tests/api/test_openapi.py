"""The machine-readable description."""

import pytest
import yaml
from django.conf import settings
from openapi_spec_validator import validate
from rest_framework.test import APIClient

from apps.api.scopes import ALL_SCOPES


@pytest.fixture(scope="module")
def schema(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        response = APIClient().get("/v1/openapi.json")
    assert response.status_code == 200
    return response.json()


def test_is_valid_openapi_3_0_0(schema):
    validate(schema)
    assert schema["openapi"] == "3.0.0"
    assert schema["info"]["version"] == "1.0.0"


def test_security_schemes(schema):
    schemes = schema["components"]["securitySchemes"]
    assert schemes["customerApiAuth"]["type"] == "http"
    assert schemes["customerApiAuth"]["scheme"] == "bearer"
    flow = schemes["platformOAuth"]["flows"]["authorizationCode"]
    assert schemes["platformOAuth"]["type"] == "oauth2"
    assert flow["authorizationUrl"] == f"{settings.AUTH_URL}/oauth/authorize"
    assert flow["tokenUrl"] == f"{settings.BASE_URL}/v1/mcp/oauth/token"
    assert set(ALL_SCOPES) | {"*"} <= set(flow["scopes"])


def platform_operations(schema):
    for path, item in schema["paths"].items():
        if not path.startswith("/v1/platform/"):
            continue
        for method, operation in item.items():
            if method in ("get", "post", "patch", "put", "delete"):
                yield path, method, operation


def test_every_platform_operation_states_scope_and_security(schema):
    operations = list(platform_operations(schema))
    assert ("/v1/platform/me", "get") in {(p, m) for p, m, _ in operations}
    for path, method, operation in operations:
        assert "x-required-scope" in operation, (path, method)
        assert operation.get("security"), (path, method)
        assert {"customerApiAuth": []} in operation["security"]
        assert operation.get("operationId"), (path, method)
        assert "x-rate-limit-bucket" in operation
        for status in ("401", "403", "429", "503"):
            assert status in operation["responses"], (path, method, status)
        scope = operation["x-required-scope"]
        oauth = [s["platformOAuth"] for s in operation["security"] if "platformOAuth" in s]
        if scope is None:
            assert oauth == [[]], (path, method)
            continue
        if isinstance(scope, dict):  # all of several: one requirement naming each
            assert list(scope) == ["allOf"] and len(scope["allOf"]) > 1, (path, method, scope)
            assert set(scope["allOf"]) <= set(ALL_SCOPES), (path, method)
            assert oauth == [scope["allOf"]], (path, method, scope, oauth)
            continue
        # One scope is a string; any one of several is their list. Either way it names exactly the scopes the
        # security requirement accepts, one alternative each.
        named = [scope] if isinstance(scope, str) else scope
        assert isinstance(named, list) and len(named) == len(set(named)) >= 1, (path, method, scope)
        assert isinstance(scope, str) or len(named) > 1, (path, method, scope)
        assert set(named) <= set(ALL_SCOPES), (path, method)
        assert oauth == [[s] for s in named], (path, method, scope, oauth)


def test_an_any_of_scope_names_every_accepted_scope(schema):
    """GET /revenue-accounts takes any of three read scopes: the extension says so, like the security."""
    for path in ("/v1/platform/revenue-accounts", "/v1/platform/revenue-accounts/{id}"):
        operation = schema["paths"][path]["get"]
        expected = ["plans:read", "products:read", "transactions:read"]
        assert sorted(operation["x-required-scope"]) == sorted(expected), operation["x-required-scope"]
        assert sorted(s["platformOAuth"][0] for s in operation["security"] if "platformOAuth" in s) == sorted(expected)
    assert schema["paths"]["/v1/platform/revenue-accounts"]["post"]["x-required-scope"] == "revenue-accounts:write"


def test_operation_ids_are_unique_and_snake_case(schema):
    ids = [op["operationId"] for _, _, op in platform_operations(schema)]
    assert len(ids) == len(set(ids))
    assert all(i == i.lower() and " " not in i and "-" not in i for i in ids)


def test_me_operation(schema):
    operation = schema["paths"]["/v1/platform/me"]["get"]
    assert operation["operationId"] == "me_get"
    assert operation["x-required-scope"] is None
    assert "200" in operation["responses"]


def test_yaml_serves_the_same_document(db):
    response = APIClient().get("/v1/openapi.yaml")
    assert response.status_code == 200
    document = yaml.safe_load(response.content)
    assert document["openapi"] == "3.0.0"
    assert "/v1/platform/me" in document["paths"]


def test_docs_page_renders(db):
    response = APIClient().get("/v1/docs")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert b"/v1/openapi.json" in response.content


# --- conformance of the document's form ----------------------------------------------------------------------------

VERBS = {"cancel", "archive", "restore", "publish", "unpublish", "retire", "rollback", "pause", "resume"}
VERBS |= {"duplicate", "refund", "promote", "redeliver", "payment", "quote", "rotate"}
VERBS |= {"summary"}  # the report endpoints: `<resource>_summary`, not a list of "summaries"
VERBS |= {"replay", "rotate_secret"}  # webhooks (API.md §5.19)
SINGLETONS = {"me", "organization", "calendar_feed", "website", "layout", "styles", "seo_settings"}


def _singular(segment):
    return segment[:-2] if segment.endswith("sses") else segment[:-1] if segment.endswith("s") else segment


def mcp_tool_name(path, method):
    """MCP tool names: the path's resource segments in snake_case plus `list|get|create|update|delete|<verb>`."""
    parts = path.removeprefix("/v1/platform/").split("/")
    names = [p.replace("-", "_") for p in parts if not p.startswith("{")]
    action = None
    if len(names) > 1 and names[-1] in VERBS and parts[-1].replace("-", "_") == names[-1]:
        action = names.pop()
    resource = "_".join([_singular(n) for n in names[:-1]] + [names[-1]])
    if action is None:
        single = parts[-1].startswith("{") or names[-1] in SINGLETONS
        action = {"get": "get" if single else "list", "post": "create", "patch": "update", "delete": "delete"}[method]
    return f"{resource}_{action}"


def test_operation_ids_follow_mcp_tool_naming(schema):
    for path, method, operation in platform_operations(schema):
        assert operation["operationId"] == mcp_tool_name(path, method), (path, method)
    operations = {op["operationId"] for _, _, op in platform_operations(schema)}
    expected = {"classes_list", "class_bookings_create", "bookings_cancel", "channel_bookings_payment", "me_get"}
    assert expected <= operations


def test_every_platform_operation_has_summary_and_tags(schema):
    for path, method, operation in platform_operations(schema):
        assert operation.get("summary"), (path, method)
        assert operation.get("tags"), (path, method)
    assert schema["paths"]["/v1/platform/classes"]["get"]["tags"] == ["classes"]


def _response_schema(schema, operation, status):
    content = operation["responses"][status]["content"]["application/json"]["schema"]
    if "$ref" in content:
        return schema["components"]["schemas"][content["$ref"].rsplit("/", 1)[-1]]
    return content


def test_status_codes_and_error_bodies_are_documented(schema):
    error = {"$ref": "#/components/schemas/Error"}
    for path, method, operation in platform_operations(schema):
        responses = operation["responses"]
        for status, response in responses.items():
            assert response.get("description"), (path, method, status)
            if status.startswith("4") and status != "403":
                assert response["content"]["application/json"]["schema"] == error, (path, method, status)
        scope_error = responses["403"]["content"]["application/json"]["schema"]
        assert {"$ref": "#/components/schemas/InsufficientScopeError"} in scope_error["oneOf"]
        if method == "post":
            assert {"201", "200", "202"} & set(responses), (path, method)  # 202: a queued replay
            assert {"400", "409", "413", "415", "422"} <= set(responses), (path, method)
            header = [p for p in operation["parameters"] if p["name"] == "Idempotency-Key"]
            assert header and header[0]["in"] == "header" and header[0]["schema"]["maxLength"] == 255
        if method == "patch":
            assert {"200", "400", "409", "413", "415"} <= set(responses), (path, method)
        if method == "delete":
            assert "204" in responses and "content" not in responses["204"], (path, method)
            assert "409" in responses
        if "201" in responses:
            assert "Location" in responses["201"]["headers"], (path, method)
        if "{" in path:
            assert "404" in responses, (path, method)


# Cursor feeds (API.md §5.19): `{data, nextCursor, hasMore}` paged with `after`, not limit/offset pages.
CURSOR_LISTS = {"webhook_events_list"}


def test_lists_are_pages_with_limit_and_offset(schema):
    lists = [(p, op) for p, m, op in platform_operations(schema) if op["operationId"].endswith("_list")]
    assert len(lists) >= 18
    for path, operation in lists:
        if operation["operationId"] in CURSOR_LISTS:
            page = _response_schema(schema, operation, "200")
            assert set(page["required"]) == {"data", "nextCursor", "hasMore"}, path
            params = {p["name"] for p in operation["parameters"] if p["in"] == "query"}
            assert {"after", "limit"} <= params, path
            continue
        page = _response_schema(schema, operation, "200")
        assert set(page["required"]) == {"data", "total", "limit", "offset"}, path
        assert page["properties"]["data"]["type"] == "array"
        params = {p["name"]: p for p in operation["parameters"] if p["in"] == "query"}
        assert params["limit"]["schema"]["type"] == "integer" and params["limit"]["schema"]["minimum"] == 1, path
        assert params["offset"]["schema"] == {"type": "integer", "minimum": 0}, path


LIST_FILTERS = {
    "/v1/platform/clubs": {"q", "city", "sport", "locale", "ordering"},
    "/v1/platform/areas": {"clubId", "areaTypeId", "sport", "isActive", "q", "ordering"},
    "/v1/platform/area-blocks": {"clubId", "areaId", "startDate", "endDate"},
    "/v1/platform/availability": {"clubId", "startDate", "endDate", "areaId", "sport", "minDurationMinutes"},
    "/v1/platform/classes": {
        "startDate", "endDate", "clubId", "areaId", "classTypeId", "instructorId", "status", "visibility",
        "timeStatus", "recurrenceId", "q", "locale", "ordering",
    },
    "/v1/platform/class-types": {"locale"},
    "/v1/platform/progression-tracks": {"classTypeId", "locale"},
    "/v1/platform/classes/{id}/bookings": {"status", "checkedIn"},
    "/v1/platform/classes/{id}/waitlist": {"status"},
    "/v1/platform/bookings": {
        "type", "clubId", "areaId", "classId", "eventId", "contactId", "status", "source", "externalSource",
        "externalId", "startDate", "endDate", "ordering",
    },
    "/v1/platform/checkins": {
        "clubId", "classId", "bookingId", "contactId", "membershipId", "method", "startDate", "endDate",
    },
    "/v1/platform/contacts": {
        "q", "email", "status", "pipelineStageId", "sourceId", "tag", "startDate", "endDate", "ordering",
    },
    "/v1/platform/instructors": {"isActive", "isBookable", "typeId", "sport", "q"},
}  # fmt: skip

INTEGER_FILTERS = {"clubId", "areaId", "areaTypeId", "classTypeId", "instructorId", "recurrenceId", "classId"}
INTEGER_FILTERS |= {"eventId", "contactId", "bookingId", "membershipId", "pipelineStageId", "sourceId", "typeId"}
INTEGER_FILTERS |= {"minDurationMinutes"}


def test_list_filters_of_api_md_section_5_are_documented_with_types(schema):
    for path, filters in LIST_FILTERS.items():
        params = {p["name"]: p["schema"] for p in schema["paths"][path]["get"]["parameters"] if p["in"] == "query"}
        assert filters <= set(params), (path, sorted(filters - set(params)))
        for name in filters:
            expected = "integer" if name in INTEGER_FILTERS else "boolean" if name.startswith("is") else None
            if name == "checkedIn":
                expected = "boolean"
            if expected:
                assert params[name]["type"] == expected, (path, name)
    for path in ("/v1/platform/classes/{id}", "/v1/platform/class-types/{id}", "/v1/platform/clubs/{slug}"):
        assert "locale" in {p["name"] for p in schema["paths"][path]["get"]["parameters"]}, path


def _walk(node):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def test_nullable_references_accept_null_in_oas_3_0(schema):
    """`{allOf: [$ref], nullable: true}` means "not null" to strict 3.0 validators, and `nullable` without a `type`
    beside it is what linters and client generators misread: the document spells "this or null" as the branches
    plus a typed null branch, and `nullable` always stands next to a `type`."""
    for node in _walk(schema):
        if node.get("nullable") is True:
            assert "type" in node, node
    area_type = schema["components"]["schemas"]["Area"]["properties"]["areaType"]
    assert area_type == {
        "oneOf": [{"$ref": "#/components/schemas/AreaTypeRef"}, {"type": "object", "nullable": True, "enum": [None]}]
    }


def test_free_form_objects_are_open(schema):
    components = schema["components"]["schemas"]
    for component, field in (
        ("Contact", "customFields"),
        ("Instructor", "bio"),
        ("ClassType", "translations"),
        ("ProgressionTrack", "translations"),
        ("Class", "translations"),
        ("InstructorSummary", "bio"),
        ("Club", "socialProfiles"),
    ):
        prop = components[component]["properties"][field]
        assert prop.get("type") == "object" and prop.get("additionalProperties") not in (None, False), (
            component,
            field,
        )


def test_enums_are_spelled_as_the_spec_and_named_readably(schema):
    components = schema["components"]["schemas"]
    assert not [name for name in components if name.endswith("Enum") and any(ch.isdigit() for ch in name)]
    assert components["BookingStatusEnum"]["enum"] == ["confirmed", "pending", "checked_in", "cancelled"]
    assert components["PaymentStatusEnum"]["enum"] == ["paid", "unpaid", "no_charge"]
    assert components["VisibilityEnum"]["enum"] == ["Public", "Member_only", "Private"]
    assert components["EndsTypeEnum"]["enum"] == ["until", "after", "never"]
    booking = components["Booking"]["properties"]
    assert booking["status"] == {"$ref": "#/components/schemas/BookingStatusEnum"}


def test_idempotency_key_pattern_matches_what_the_server_accepts(schema):
    import re

    parameter = next(
        p for p in schema["paths"]["/v1/platform/bookings"]["post"]["parameters"] if p["name"] == "Idempotency-Key"
    )
    pattern = re.compile(parameter["schema"]["pattern"])
    for good in ("a", "order-42", "key with spaces", "~" * 255):
        assert pattern.fullmatch(good), good
    for bad in ("", " leading", "trailing ", "caf\u00e9", "tab\tkey"):
        assert not pattern.fullmatch(bad), bad


def test_docs_page_serves_its_assets_from_the_app(client):
    import re

    page = client.get("/v1/docs")
    assert page.status_code == 200
    assets = re.findall(r'(?:src|href)="([^"]+\.(?:js|css))"', page.content.decode())
    assert assets, "Swagger UI's script and stylesheet are referenced"
    for asset in assets:
        assert asset.startswith("/static/"), f"{asset} would need a CDN"
        assert client.get(asset).status_code == 200
