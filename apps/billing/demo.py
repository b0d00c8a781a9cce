"""Demo plans in categories (a monthly unlimited plan on the default Sales account, a 10-class pass on its own
revenue account). The memberships sold on them are the memberships app's demo (they come with their charges)."""

from decimal import Decimal

from .choices import BillingFrequency
from .models import Plan, PlanCategory, RevenueAccount
from .revenue_accounts import ensure_default_account

CATEGORIES = {
    "Memberships": {"description": "Recurring plans.", "position": 0, "translations": {"es": {"name": "Cuotas"}}},
    "Passes": {"description": "Packs of sessions.", "position": 1, "translations": {"es": {"name": "Bonos"}}},
}

# plan name -> category name
PLAN_CATEGORIES = {"Monthly unlimited": "Memberships", "10-class pass": "Passes"}

PLANS = {
    "Monthly unlimited": {
        "description": "Unlimited classes, every month.",
        "price": Decimal("49.00"),
        "billing_frequency": BillingFrequency.MONTHLY,
        "auto_renews": True,
        "valid_for": {"scopes": ["classes", "areas"], "classTypes": [], "areaTypes": [], "instructorTypes": []},
    },
    "10-class pass": {
        "description": "Ten classes to use within three months.",
        "price": Decimal("90.00"),
        "billing_frequency": "one_time",
        "max_uses": 10,
        "session_unit": "booking",
        "validity_period": 90,
        "valid_for": {"scopes": ["classes"], "classTypes": [], "areaTypes": [], "instructorTypes": []},
    },
}


def seed(organization, ctx: dict) -> None:
    """Idempotent. Puts `ctx["plans"]` ({name: Plan})."""
    ensure_default_account(organization)
    passes_account, _ = RevenueAccount.objects.get_or_create(
        organization=organization, name="Passes", defaults={"code": "4100", "description": "Class packs."}
    )
    categories = {
        name: PlanCategory.objects.get_or_create(organization=organization, name=name, defaults=fields)[0]
        for name, fields in CATEGORIES.items()
    }
    plans = {}
    for name, fields in PLANS.items():
        defaults = {**fields, "plan_category": categories[PLAN_CATEGORIES[name]]}
        if name == "10-class pass":
            defaults["revenue_account"] = passes_account
        plan, _ = Plan.objects.get_or_create(organization=organization, name=name, defaults=defaults)
        if plan.plan_category_id is None:  # a demo seeded before plans had categories
            plan.plan_category = defaults["plan_category"]
            plan.save(update_fields=["plan_category", "updated_at"])
        plans[name] = plan
    ctx["plans"] = plans
