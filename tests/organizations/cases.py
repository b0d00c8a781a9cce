from tests.harness import EndpointCase

CASES = [
    EndpointCase("GET", "/v1/platform/me", None),
]
