"""Query parameters of the classes, class types and progression tracks lists."""

from django.db.models import Exists, OuterRef
from django.db.models.functions import Lower
from django.utils import timezone

from apps.api.filtersets import (
    BooleanFilter,
    ChoiceListFilter,
    DateWindow,
    IntegerFilter,
    Ordering,
    PlatformFilterSet,
    SearchFilter,
)

from .choices import ClassStatus, TimeStatus, Visibility
from .models import ClassOccurrence


class ClassFilterSet(PlatformFilterSet):
    clubId = IntegerFilter("club_id")
    areaId = IntegerFilter("area_id")
    classTypeId = IntegerFilter("class_type_id")
    recurrenceId = IntegerFilter("series_id")
    instructorId = IntegerFilter(method="with_instructor")
    status = ChoiceListFilter("status", choices=ClassStatus)
    visibility = ChoiceListFilter("visibility", choices=Visibility)
    timeStatus = ChoiceListFilter(choices=TimeStatus, method="in_time_status")
    q = SearchFilter("name", help_text="Case-insensitive substring of the name.")

    date_window = DateWindow(
        "start_time",
        club_clock=True,
        start_help="Date (club clock) or date-time; on startTime, inclusive.",
        end_help="Date (club clock) or date-time; on startTime, inclusive.",
    )
    # Names sort case-insensitively (the database collation may be byte order).
    ordering = Ordering(
        {"startTime": "start_time", "name": Lower("name"), "createdAt": "created_at"},
        default="startTime",
        help_text="`startTime` (default), `name`, `createdAt`; `-` for descending.",
    )

    def with_instructor(self, queryset, name, instructor_id):
        through = ClassOccurrence.instructors.through.objects
        return queryset.filter(Exists(through.filter(classoccurrence_id=OuterRef("pk"), instructor_id=instructor_id)))

    def in_time_status(self, queryset, name, statuses):
        if len(set(statuses)) != 1:
            return queryset
        lookup = "end_time__lt" if statuses[0] == TimeStatus.PAST else "end_time__gte"
        return queryset.filter(**{lookup: timezone.now()})


class ClassTypeFilterSet(PlatformFilterSet):
    isActive = BooleanFilter("is_active")
    q = SearchFilter("name", help_text="Case-insensitive search in the name.")

    ordering = Ordering(
        {"name": "name", "createdAt": "created_at", "updatedAt": "updated_at", "id": "id"},
        default="-createdAt",
        help_text="`name`, `createdAt`, `updatedAt`; `-` for descending.",
    )


class ProgressionTrackFilterSet(PlatformFilterSet):
    classTypeId = IntegerFilter("class_types__id", help_text="Tracks that include this type.")

    order_by = ("-created_at", "-id")
