"""Query parameters of the instructors lists."""

from django.db.models import Q, Value
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
        return queryset.annotate(
            contact_full_name=Concat("contact__first_name", Value(" "), "contact__last_name")
        ).filter(
            Q(contact__first_name__icontains=term)
            | Q(contact__last_name__icontains=term)
            | Q(contact_full_name__icontains=term)
        )


class InstructorTypeFilterSet(PlatformFilterSet):
    ordering = Ordering({"name": "name", "createdAt": "created_at", "id": "id"}, "-createdAt", ORDERING_HELP)


class PayRatePolicyFilterSet(PlatformFilterSet):
    isActive = BooleanFilter("is_active")

    ordering = Ordering({"name": "name", "createdAt": "created_at", "id": "id"}, "-createdAt", ORDERING_HELP)
