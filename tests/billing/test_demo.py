"""The demo data seeds plans in categories (one on its own revenue account), and is idempotent."""

from apps.billing import demo
from apps.billing.models import Plan, PlanCategory, RevenueAccount


def test_seed_puts_plans_in_categories_idempotently(organization, api):
    demo.seed(organization, {})
    demo.seed(organization, {})
    assert PlanCategory.objects.filter(organization=organization).count() == 2
    assert Plan.objects.filter(organization=organization).count() == 2
    assert RevenueAccount.objects.filter(organization=organization, is_default=True).count() == 1

    plans = {row["name"]: row for row in api.get("/v1/platform/plans").json()["data"]}
    assert plans["Monthly unlimited"]["planCategory"]["name"] == "Memberships"
    assert plans["Monthly unlimited"]["revenueAccountId"] is None
    assert plans["10-class pass"]["planCategory"]["name"] == "Passes"
    passes = RevenueAccount.objects.get(organization=organization, name="Passes")
    assert plans["10-class pass"]["revenueAccountId"] == passes.id
    assert api.get("/v1/platform/plan-categories?locale=es&ordering=position").json()["data"][1]["name"] == "Bonos"
