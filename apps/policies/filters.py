"""Query parameters of the booking policy and document rule lists."""

from apps.api.filtersets import BooleanFilter, ChoiceListFilter, IntegerFilter, PlatformFilterSet

from .choices import DocumentAppliesTo, PolicyAppliesTo


class BookingPolicyFilterSet(PlatformFilterSet):
    appliesTo = ChoiceListFilter("applies_to", choices=PolicyAppliesTo)
    clubId = IntegerFilter("club_id", help_text="Policies of this club (policies for every club have `clubId: null`).")

    order_by = ("id",)


class DocumentRuleFilterSet(PlatformFilterSet):
    appliesTo = ChoiceListFilter("applies_to", choices=DocumentAppliesTo)
    isActive = BooleanFilter("is_active")

    order_by = ("id",)
