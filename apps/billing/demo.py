"""Demo plans in categories (a monthly unlimited plan on the default Sales account, a 10-class pass on its own
revenue account) and memberships sold to a few demo contacts."""

import datetime as dt
from decimal import Decimal

from django.utils import timezone

from apps.contacts.choices import ContactStatus
from apps.contacts.models import Contact

from .choices import BillingFrequency, MembershipStatus
from .models import Membership, Plan, PlanCategory, RevenueAccount
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


def _contacts(organization, ctx) -> list:
    contacts = ctx.get("contacts")
    if isinstance(contacts, dict):
        contacts = list(contacts.values())
    if not contacts:
        contacts = list(
            Contact.objects.filter(organization=organization, status=ContactStatus.ACTIVE).order_by("id")[:10]
        )
    return list(contacts)


def seed(organization, ctx: dict) -> None:
    """Idempotent. Puts `ctx["plans"]` ({name: Plan}) and `ctx["memberships"]` ([Membership])."""
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
    today = timezone.localdate()
    memberships = []
    for index, contact in enumerate(_contacts(organization, ctx)[:4]):
        plan = plans["Monthly unlimited"] if index % 2 == 0 else plans["10-class pass"]
        membership, _ = Membership.objects.get_or_create(
            organization=organization,
            contact=contact,
            plan=plan,
            defaults={
                "status": MembershipStatus.ACTIVE,
                "price": plan.price,
                "billing_frequency": plan.billing_frequency,
                "payment_status": "paid",
                "start_date": today - dt.timedelta(days=15),
                "end_date": None if plan.max_uses is None else today + dt.timedelta(days=75),
                "uses_remaining": plan.max_uses,
                "source": "admin",
            },
        )
        memberships.append(membership)
    ctx["plans"] = plans
    ctx["memberships"] = memberships
