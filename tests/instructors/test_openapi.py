"""Every instructors / class-types operation is described in the OpenAPI document, with MCP-style operation ids."""

from rest_framework.test import APIClient

EXPECTED = {
    ("/v1/platform/instructors", "get"): "instructors_list",
    ("/v1/platform/instructors", "post"): "instructors_create",
    ("/v1/platform/instructors/{id}", "get"): "instructors_get",
    ("/v1/platform/instructors/{id}", "patch"): "instructors_update",
    ("/v1/platform/instructor-types", "get"): "instructor_types_list",
    ("/v1/platform/instructor-types", "post"): "instructor_types_create",
    ("/v1/platform/instructor-types/{id}", "get"): "instructor_types_get",
    ("/v1/platform/instructor-types/{id}", "patch"): "instructor_types_update",
    ("/v1/platform/pay-rate-policies", "get"): "pay_rate_policies_list",
    ("/v1/platform/pay-rate-policies", "post"): "pay_rate_policies_create",
    ("/v1/platform/pay-rate-policies/{id}", "get"): "pay_rate_policies_get",
    ("/v1/platform/pay-rate-policies/{id}", "patch"): "pay_rate_policies_update",
    ("/v1/platform/class-types", "get"): "class_types_list",
    ("/v1/platform/class-types", "post"): "class_types_create",
    ("/v1/platform/class-types/{id}", "get"): "class_types_get",
    ("/v1/platform/class-types/{id}", "patch"): "class_types_update",
    ("/v1/platform/class-types/{id}", "delete"): "class_types_delete",
    ("/v1/platform/progression-tracks", "get"): "progression_tracks_list",
    ("/v1/platform/progression-tracks/{id}", "get"): "progression_tracks_get",
}


def test_operations_documented(db):
    response = APIClient().get("/v1/openapi.json")
    assert response.status_code == 200
    document = response.json()
    paths = document["paths"]
    for (path, method), operation_id in EXPECTED.items():
        operation = paths[path][method]
        assert operation["operationId"] == operation_id
        assert operation["x-required-scope"].split(":")[0] in ("instructors", "classes")
    for path in ("/v1/platform/instructors/{id}", "/v1/platform/instructor-types/{id}"):
        assert "put" not in paths[path] and "delete" not in paths[path]
    assert set(paths["/v1/platform/progression-tracks/{id}"]) & {"post", "patch", "put", "delete"} == set()
    instructor = document["components"]["schemas"]["Instructor"]["properties"]
    assert {"weeklyAvailability", "payRatePolicyId", "contact", "type", "hourlyRate"} <= set(instructor)
    create = document["components"]["schemas"]["InstructorCreateRequest"]["properties"]
    assert {"contactId", "contact", "weeklyAvailability"} <= set(create)
