import itertools
from decimal import Decimal

from django.utils import timezone

from apps.billing.models import Plan, PlanCategory, RevenueAccount
from apps.organizations.models import ApiKey
from tests.harness import EndpointCase

REVENUE_ACCOUNT_READ = frozenset({"plans:read", "products:read", "transactions:read"})

_seq = itertools.count()


def _settle_key_usage(organization):
    ApiKey.objects.filter(organization=organization).update(last_used_at=timezone.now())


def account_ids(organization):
    return {"id": RevenueAccount.objects.create(organization=organization, name=f"Shop {next(_seq)}").id}


def account_rows(organization, n):
    _settle_key_usage(organization)
    RevenueAccount.objects.bulk_create(
        [RevenueAccount(organization=organization, name=f"Account {next(_seq)}") for _ in range(n)]
    )


def category_ids(organization):
    return {"id": PlanCategory.objects.create(organization=organization, name="Passes").id}


def category_rows(organization, n):
    _settle_key_usage(organization)
    PlanCategory.objects.bulk_create(
        [PlanCategory(organization=organization, name=f"Category {i}", position=i) for i in range(n)]
    )


def plan_ids(organization):
    return {"id": Plan.objects.create(organization=organization, name="Monthly", price=Decimal("40")).id}


def plan_rows(organization, n):
    _settle_key_usage(organization)
    category = PlanCategory.objects.create(organization=organization, name=f"Cat {next(_seq)}")
    Plan.objects.bulk_create(
        [
            Plan(
                organization=organization,
                name=f"Plan {i}",
                price=Decimal("10.50"),
                plan_category=category,
                valid_for={"scopes": ["classes"], "classTypes": [], "areaTypes": [], "instructorTypes": []},
            )
            for i in range(n)
        ]
    )


CASES = [
    EndpointCase("GET", "/v1/platform/revenue-accounts", REVENUE_ACCOUNT_READ, list_rows=account_rows),
    EndpointCase("GET", "/v1/platform/revenue-accounts/{id}", REVENUE_ACCOUNT_READ, setup=account_ids),
    EndpointCase("POST", "/v1/platform/revenue-accounts", "revenue-accounts:write", body={"name": "Shop"}),
    EndpointCase("PATCH", "/v1/platform/revenue-accounts/{id}", "revenue-accounts:write", setup=account_ids, body={}),
    EndpointCase("GET", "/v1/platform/plan-categories", "plans:read", list_rows=category_rows),
    EndpointCase("GET", "/v1/platform/plan-categories/{id}", "plans:read", setup=category_ids),
    EndpointCase("POST", "/v1/platform/plan-categories", "plans:write", body={"name": "Passes"}),
    EndpointCase("PATCH", "/v1/platform/plan-categories/{id}", "plans:write", setup=category_ids, body={}),
    EndpointCase("DELETE", "/v1/platform/plan-categories/{id}", "plans:write", setup=category_ids),
    EndpointCase("GET", "/v1/platform/plans", "plans:read", list_rows=plan_rows),
    EndpointCase("GET", "/v1/platform/plans/{id}", "plans:read", setup=plan_ids),
    EndpointCase("POST", "/v1/platform/plans", "plans:write", body={"name": "Monthly", "price": 40}),
    EndpointCase("PATCH", "/v1/platform/plans/{id}", "plans:write", setup=plan_ids, body={}),
    EndpointCase("DELETE", "/v1/platform/plans/{id}", "plans:write", setup=plan_ids),
    EndpointCase("POST", "/v1/platform/plans/{id}/retire", "plans:write", setup=plan_ids, body={}),
]
