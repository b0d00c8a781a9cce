import itertools

from django.utils import timezone

from apps.api.permissions import AllOf
from apps.contacts.models import Contact
from apps.instructors.models import Instructor, InstructorType, PayRatePolicy
from apps.organizations.models import ApiKey
from tests.harness import EndpointCase


def _settle_key_usage(organization):
    """The first request of a fresh API key also writes `last_used_at`; mark the keys used so the contract's
    one-row vs many-rows query comparison counts only the list's own queries."""
    ApiKey.objects.filter(organization=organization).update(last_used_at=timezone.now())


_seq = itertools.count()


def _instructor(organization, **fields):
    n = next(_seq)
    itype = InstructorType.objects.create(organization=organization, name=f"Coach {n}")
    contact = Contact.objects.create(organization=organization, first_name="Coach", last_name=f"No{n}")
    return Instructor.objects.create(organization=organization, contact=contact, type=itype, **fields)


def instructor_ids(organization):
    return {"id": _instructor(organization).id}


def instructor_rows(organization, n):
    _settle_key_usage(organization)
    for _ in range(n):
        _instructor(
            organization, weekly_availability=[{"dayOfWeek": "monday", "startTime": "09:00", "endTime": "12:00"}]
        )


def instructor_type_ids(organization):
    return {"id": InstructorType.objects.create(organization=organization, name="Coach").id}


def instructor_type_rows(organization, n):
    _settle_key_usage(organization)
    InstructorType.objects.bulk_create([InstructorType(organization=organization, name=f"T{i}") for i in range(n)])


def policy_ids(organization):
    return {"id": PayRatePolicy.objects.create(organization=organization, name="H", rate_type="hourly", amount=20).id}


def policy_rows(organization, n):
    _settle_key_usage(organization)
    PayRatePolicy.objects.bulk_create(
        [PayRatePolicy(organization=organization, name=f"P{i}", rate_type="per_class", amount=10) for i in range(n)]
    )


CASES = [
    EndpointCase("GET", "/v1/platform/instructors", "instructors:read", list_rows=instructor_rows),
    EndpointCase("GET", "/v1/platform/instructors/{id}", "instructors:read", setup=instructor_ids),
    EndpointCase("POST", "/v1/platform/instructors", "instructors:write", body={"contact": {"firstName": "Zed"}}),
    EndpointCase("PATCH", "/v1/platform/instructors/{id}", "instructors:write", setup=instructor_ids, body={}),
    EndpointCase(
        "GET",
        "/v1/platform/instructors/{id}/calendar-feed",
        AllOf("instructors:read", "classes:read"),
        setup=instructor_ids,
    ),
    EndpointCase(
        "POST", "/v1/platform/instructors/{id}/calendar-feed/rotate", "instructors:write", setup=instructor_ids, body={}
    ),
    EndpointCase("GET", "/v1/platform/instructor-types", "instructors:read", list_rows=instructor_type_rows),
    EndpointCase("GET", "/v1/platform/instructor-types/{id}", "instructors:read", setup=instructor_type_ids),
    EndpointCase("POST", "/v1/platform/instructor-types", "instructors:write", body={"name": "Coach"}),
    EndpointCase(
        "PATCH", "/v1/platform/instructor-types/{id}", "instructors:write", setup=instructor_type_ids, body={}
    ),
    EndpointCase("GET", "/v1/platform/pay-rate-policies", "instructors:read", list_rows=policy_rows),
    EndpointCase("GET", "/v1/platform/pay-rate-policies/{id}", "instructors:read", setup=policy_ids),
    EndpointCase(
        "POST",
        "/v1/platform/pay-rate-policies",
        "instructors:write",
        body={"name": "Hourly", "rateType": "hourly", "amount": 25},
    ),
    EndpointCase("PATCH", "/v1/platform/pay-rate-policies/{id}", "instructors:write", setup=policy_ids, body={}),
]
