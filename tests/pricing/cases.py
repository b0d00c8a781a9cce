from django.utils import timezone

from apps.organizations.models import ApiKey
from apps.pricing.models import PricingRule
from tests.harness import EndpointCase


def _rule(organization, n=0):
    return PricingRule(
        organization=organization,
        name=f"Peak {n}",
        adjustment_type="percent",
        value=10,
        days_of_week=["monday"],
        sports=["padel"],
        start_minute=18 * 60,
        end_minute=22 * 60,
    )


def rule_ids(organization):
    rule = _rule(organization)
    rule.save()
    return {"id": rule.id}


def rule_rows(organization, n):
    ApiKey.objects.filter(organization=organization).update(last_used_at=timezone.now())
    PricingRule.objects.bulk_create([_rule(organization, i) for i in range(n)])


CASES = [
    EndpointCase("GET", "/v1/platform/pricing-rules", "pricing-rules:read", list_rows=rule_rows),
    EndpointCase("GET", "/v1/platform/pricing-rules/{id}", "pricing-rules:read", setup=rule_ids),
    EndpointCase("GET", "/v1/platform/pricing-rules/quote", "pricing-rules:read"),
    EndpointCase(
        "POST",
        "/v1/platform/pricing-rules",
        "pricing-rules:write",
        body={"name": "Peak", "adjustmentType": "percent", "value": 10},
    ),
    EndpointCase("PATCH", "/v1/platform/pricing-rules/{id}", "pricing-rules:write", setup=rule_ids, body={}),
    EndpointCase("DELETE", "/v1/platform/pricing-rules/{id}", "pricing-rules:write", setup=rule_ids),
]
