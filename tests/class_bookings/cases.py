from tests.class_bookings.factories import contract_class, make_class_booking, make_waitlist_entry
from tests.factories import make_contact
from tests.harness import EndpointCase


def _class(organization):
    return {"id": contract_class(organization).pk}


def _roster_rows(organization, n):
    occurrence = contract_class(organization)
    for _ in range(n):
        make_class_booking(occurrence, make_contact(organization))


def _waitlist_rows(organization, n):
    occurrence = contract_class(organization)
    for _ in range(n):
        make_waitlist_entry(occurrence)


def _entry(organization):
    occurrence = contract_class(organization)
    return {"id": occurrence.pk, "entryId": make_waitlist_entry(occurrence).pk}


CASES = [
    EndpointCase("GET", "/v1/platform/classes/{id}/bookings", "bookings:read", _class, list_rows=_roster_rows),
    EndpointCase("POST", "/v1/platform/classes/{id}/bookings", "bookings:write", _class, body={}),
    EndpointCase("GET", "/v1/platform/classes/{id}/waitlist", "bookings:read", _class, list_rows=_waitlist_rows),
    EndpointCase("POST", "/v1/platform/classes/{id}/waitlist", "bookings:write", _class, body={}),
    EndpointCase("POST", "/v1/platform/classes/{id}/waitlist/{entryId}/promote", "bookings:write", _entry),
    EndpointCase("DELETE", "/v1/platform/classes/{id}/waitlist/{entryId}", "bookings:write", _entry),
]
