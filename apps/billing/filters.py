"""Query parameters of the revenue accounts, plan categories and plans lists."""

from apps.api.filtersets import (
    BooleanFilter,
    ChoiceListFilter,
    IntegerFilter,
    Ordering,
    PlatformFilterSet,
    SearchFilter,
)
from apps.classes.choices import Visibility

from .choices import BillingFrequency

ORDERING_HELP = "`createdAt`, `name`; `-` for descending."


class RevenueAccountFilterSet(PlatformFilterSet):
    isActive = BooleanFilter("is_active")

    ordering = Ordering({"createdAt": "created_at", "name": "name", "id": "id"}, "-createdAt", ORDERING_HELP)


class PlanCategoryFilterSet(PlatformFilterSet):
    ordering = Ordering(
        {"createdAt": "created_at", "name": "name", "position": "position", "id": "id"},
        "-createdAt",
        "`createdAt`, `name`, `position`; `-` for descending.",
    )


class PlanFilterSet(PlatformFilterSet):
    clubId = IntegerFilter("club_id")
    planCategoryId = IntegerFilter("plan_category_id")
    isActive = BooleanFilter("is_active")
    visibility = ChoiceListFilter("visibility", choices=Visibility)
    billingFrequency = ChoiceListFilter("billing_frequency", choices=BillingFrequency)
    q = SearchFilter("name", "description", help_text="Case-insensitive search in the name and description.")

    ordering = Ordering(
        {"createdAt": "created_at", "updatedAt": "updated_at", "name": "name", "price": "price", "id": "id"},
        "-createdAt",
        "`createdAt`, `updatedAt`, `name`, `price`; `-` for descending.",
    )
