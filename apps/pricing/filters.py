"""Query parameters of the pricing rules list."""

from apps.api.filters import int_value
from apps.api.filtersets import BooleanFilter, IntegerFilter, Ordering, PlatformFilterSet, QueryFilter


class ListedAreaFilter(QueryFilter):
    """Rules whose `areaIds` list the area."""

    schema = {"type": "integer"}

    def parse(self, raw):
        return int_value(self.parameter_name, raw)

    def apply(self, qs, value):
        return qs.filter(**{f"{self.field_name}__contains": [value]})


class PricingRuleFilterSet(PlatformFilterSet):
    clubId = IntegerFilter("club_id")
    areaId = ListedAreaFilter("area_ids", help_text="Rules whose `areaIds` list this area.")
    isActive = BooleanFilter("is_active")

    ordering = Ordering(
        {"priority": "priority", "createdAt": "created_at", "id": "id"},
        default="-createdAt",
        help_text="`priority`, `createdAt` (default `-createdAt`); `-` for descending.",
    )
