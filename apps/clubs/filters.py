"""Query parameters of the clubs, area types and areas lists."""

from django.db.models import Q

from apps.api.filtersets import (
    BooleanFilter,
    IntegerFilter,
    Ordering,
    PlatformFilterSet,
    QueryFilter,
    SearchFilter,
    TextFilter,
)


class AnySportFilter(QueryFilter):
    """`sport=padel,tennis`: rows offering any of them."""

    def parse(self, raw):
        sports = [value.strip() for value in (raw or "").split(",") if value.strip()]
        return sports or None

    def apply(self, qs, sports):
        condition = Q()
        for sport in sports:
            condition |= Q(**{f"{self.field_name}__contains": [sport]})
        return qs.filter(condition)


class ClubFilterSet(PlatformFilterSet):
    q = SearchFilter("name", "city", help_text="Case-insensitive search in name and city.")
    city = TextFilter("city", lookup_expr="iexact")
    sport = AnySportFilter("sports", help_text="Comma list; clubs offering any of them.")

    ordering = Ordering(
        {"name": "name", "createdAt": "created_at", "id": "id"},
        default="-createdAt",
        help_text="`name`, `createdAt` (default `-createdAt`).",
    )


class AreaTypeFilterSet(PlatformFilterSet):
    q = SearchFilter("name", help_text="Search in name.")

    ordering = Ordering(
        {"name": "name", "createdAt": "created_at", "id": "id"}, default="-createdAt", help_text="`name`, `createdAt`."
    )


class AreaFilterSet(PlatformFilterSet):
    clubId = IntegerFilter("club_id")
    areaTypeId = IntegerFilter("area_type_id")
    sport = AnySportFilter("sports", help_text="Comma list; areas offering any of them.")
    isActive = BooleanFilter("is_active")
    q = SearchFilter("name", help_text="Search in name.")

    ordering = Ordering(
        {"position": "position", "name": "name", "id": "id"},
        default="position",
        help_text="`position` (default), `name`.",
    )
