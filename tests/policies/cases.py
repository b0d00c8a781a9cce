from django.utils import timezone

from apps.classes.models import ClassType
from apps.organizations.models import ApiKey
from apps.policies.models import BookingPolicy, DocumentRule
from tests.harness import EndpointCase


def _settle_key_usage(organization):
    """The first request of a fresh API key also writes `last_used_at`; mark the keys used so the contract's
    one-row vs many-rows query comparison counts only the list's own queries."""
    ApiKey.objects.filter(organization=organization).update(last_used_at=timezone.now())


def policy_ids(organization):
    return {"id": BookingPolicy.objects.create(organization=organization, name="P", applies_to="areas").id}


def policy_rows(organization, n):
    _settle_key_usage(organization)
    policies = BookingPolicy.objects.bulk_create(
        [BookingPolicy(organization=organization, name=f"P{i}", applies_to="classes") for i in range(n)]
    )
    class_type = ClassType.objects.create(organization=organization, name=f"Type {len(policies)}")
    through = BookingPolicy.class_types.through
    through.objects.bulk_create([through(bookingpolicy=p, classtype=class_type) for p in policies])


def rule_ids(organization):
    return {
        "id": DocumentRule.objects.create(
            organization=organization, name="W", document_type="waiver", requirement="sign", applies_to="members"
        ).id
    }


def rule_rows(organization, n):
    _settle_key_usage(organization)
    DocumentRule.objects.bulk_create(
        [
            DocumentRule(
                organization=organization, name=f"R{i}", document_type="terms", requirement="accept", applies_to="plans"
            )
            for i in range(n)
        ]
    )


CASES = [
    EndpointCase("GET", "/v1/platform/booking-policies", "booking-policies:read", list_rows=policy_rows),
    EndpointCase("GET", "/v1/platform/booking-policies/{id}", "booking-policies:read", setup=policy_ids),
    EndpointCase(
        "POST", "/v1/platform/booking-policies", "booking-policies:write", body={"name": "P", "appliesTo": "areas"}
    ),
    EndpointCase("PATCH", "/v1/platform/booking-policies/{id}", "booking-policies:write", setup=policy_ids, body={}),
    EndpointCase("DELETE", "/v1/platform/booking-policies/{id}", "booking-policies:write", setup=policy_ids),
    EndpointCase(
        "POST", "/v1/platform/booking-policies/{id}/duplicate", "booking-policies:write", setup=policy_ids, body={}
    ),
    EndpointCase("GET", "/v1/platform/document-rules", "document-rules:read", list_rows=rule_rows),
    EndpointCase("GET", "/v1/platform/document-rules/{id}", "document-rules:read", setup=rule_ids),
    EndpointCase(
        "POST",
        "/v1/platform/document-rules",
        "document-rules:write",
        body={"name": "W", "documentType": "waiver", "requirement": "sign", "appliesTo": "all_contacts"},
    ),
    EndpointCase("PATCH", "/v1/platform/document-rules/{id}", "document-rules:write", setup=rule_ids, body={}),
    EndpointCase("DELETE", "/v1/platform/document-rules/{id}", "document-rules:write", setup=rule_ids),
]
