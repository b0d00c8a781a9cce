"""Uniform contract rows for /v1/platform/classes (tests/harness.py)."""

from tests.classes.conftest import make_occurrence
from tests.harness import EndpointCase


def one_class(organization):
    return {"id": make_occurrence(organization).id}


def class_rows(organization, n):
    from apps.contacts.models import Contact
    from tests.classes.conftest import book, make_instructor

    for i in range(n):
        occurrence = make_occurrence(organization, name=f"Class {i}", max_capacity=10)
        suffix = f"{organization.pk}-{occurrence.pk}"
        occurrence.instructors.add(make_instructor(organization, first_name=f"I{suffix}", email=f"i{suffix}@x.com"))
        book(occurrence, Contact.objects.create(organization=organization, first_name=f"C{suffix}"))


CASES = [
    EndpointCase("GET", "/v1/platform/classes", "classes:read", list_rows=class_rows),
    EndpointCase("GET", "/v1/platform/classes/{id}", "classes:read", setup=one_class),
    EndpointCase("POST", "/v1/platform/classes", "classes:write", body={}),
    EndpointCase("PATCH", "/v1/platform/classes/{id}", "classes:write", setup=one_class, body={"name": "Renamed"}),
    EndpointCase("DELETE", "/v1/platform/classes/{id}", "classes:write", setup=one_class),
    EndpointCase("POST", "/v1/platform/classes/{id}/cancel", "classes:write", setup=one_class, body={}),
]
