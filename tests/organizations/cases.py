from tests.harness import EndpointCase

CASES = [
    EndpointCase("GET", "/v1/platform/me", None),
    EndpointCase("GET", "/v1/platform/organization", None),
    EndpointCase("PATCH", "/v1/platform/organization", "organization:write", body={"bookingCardNames": {}}),
]
