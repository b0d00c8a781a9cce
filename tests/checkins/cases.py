from tests.class_bookings.factories import make_checkin
from tests.harness import EndpointCase


def _checkin(organization):
    return {"id": make_checkin(organization).pk}


def _rows(organization, n):
    for _ in range(n):
        make_checkin(organization)


CASES = [
    EndpointCase("GET", "/v1/platform/checkins", "checkins:read", list_rows=_rows),
    EndpointCase("GET", "/v1/platform/checkins/{id}", "checkins:read", _checkin),
    EndpointCase("POST", "/v1/platform/checkins", "checkins:write", body={}),
]
