"""Query parameters of the instructors lists."""

from django.db.models import Value
from django.db.models.functions import Concat

from apps.api.filtersets import (
    BooleanFilter,
    ContainsFilter,
    IntegerFilter,
    Ordering,
    PlatformFilterSet,
    SearchFilter,
)

ORDERING_HELP = "`createdAt`, `name`; `-` for descending."


class InstructorFilterSet(PlatformFilterSet):
    isActive = BooleanFilter("is_active")
    isBookable = BooleanFilter("is_bookable")
    typeId = IntegerFilter("type_id")
    sport = ContainsFilter("sports", help_text="Instructors teaching this sport.")
    q = SearchFilter("contact__first_name", help_text="Case-insensitive search in the contact's name.", method="search")

    ordering = Ordering(
        {"createdAt": "created_at", "updatedAt": "updated_at", "name": "contact__first_name", "id": "id"},
        default="-createdAt",
        help_text=ORDERING_HELP,
    )

    def search(self, queryset, name, term):
        # The full name holds the first and the last name (Concat reads a missing one as ""): one condition covers
        # a term in either and one spanning both ("Ana Lo").
        full_name = Concat("contact__first_name", Value(" "), "contact__last_name")
        return queryset.alias(contact_full_name=full_name).filter(contact_full_name__icontains=term)


class InstructorTypeFilterSet(PlatformFilterSet):
    ordering = Ordering({"name": "name", "createdAt": "created_at", "id": "id"}, "-createdAt", ORDERING_HELP)


class PayRatePolicyFilterSet(PlatformFilterSet):
    isActive = BooleanFilter("is_active")

    ordering = Ordering({"name": "name", "createdAt": "created_at", "id": "id"}, "-createdAt", ORDERING_HELP)
