from tests.harness import EndpointCase

CASES = [EndpointCase("GET", "/v1/platform/analytics/summary", "analytics:read")]
