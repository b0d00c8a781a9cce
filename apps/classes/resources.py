"""Class, class type and progression track shapes.

A page of classes costs two queries whatever its size: the page itself (`.values()` with the club, area, class
type and series columns joined, the booked/walk-in/waitlist counts and the instructor ids as SQL subqueries), and
the distinct instructors of the page. Per-request constants (tax-inclusive prices, club zones, translated class
type names) are computed once per distinct value.
"""

import datetime as dt
from typing import Annotated, NotRequired, TypedDict

from django.db.models import Min

from apps.api.expressions import related_ids
from apps.api.presenters import number
from apps.api.resources import Describe, PresentContext, Resource
from apps.clubs.choices import DayOfWeek
from apps.instructors.models import Instructor
from apps.instructors.resources import INSTRUCTOR_SUMMARY, InstructorSummary
from apps.kernel import clock
from apps.occupancy.queries import class_seat_counts

from . import models
from .choices import AvailabilityStatus, ClassStatus, EndsType, Frequency, SeriesStatus, TimeStatus, Visibility


def _name_slug_description(row: dict, ctx: PresentContext) -> dict:
    """A class, class type or track's name and description in the request's language, and its slug."""
    translations = row["translations"]
    return {
        "name": ctx.translate(translations, "name", row["name"]),
        "slug": row["slug"],
        "description": ctx.translate(translations, "description", row["description"]),
    }


class ClassTypeRef(TypedDict):
    id: int
    name: str | None
    slug: str | None
    maxPartySize: int | None


class ClassClubRef(TypedDict):
    id: int
    name: str
    slug: str | None


class ClassAreaRef(TypedDict):
    id: int
    name: str


class ClassRecurrence(TypedDict):
    id: int
    frequency: Frequency
    interval: int
    daysOfWeek: list[DayOfWeek]
    endsType: EndsType
    endsDate: dt.datetime | None
    endsTotalOccurrences: int | None
    status: SeriesStatus


class ClassSeriesInfo(TypedDict):
    recurrenceId: int
    occurrencesCreated: int
    occurrencesRemoved: NotRequired[int]


class Class(TypedDict):
    """One class occurrence (`series` only on a recurring create or an end move)."""

    id: int
    name: str
    slug: str | None
    description: str | None
    images: list[str]
    classTypeId: int | None
    classType: ClassTypeRef | None
    clubId: int
    club: ClassClubRef | None
    areaId: int | None
    area: ClassAreaRef | None
    startTime: dt.datetime
    endTime: dt.datetime
    durationMinutes: int
    isMultiDay: bool
    status: ClassStatus
    visibility: Visibility
    sport: str | None
    color: str | None
    price: float | None
    priceBeforeTax: float | None
    isFree: bool
    maxCapacity: int | None
    maxPartySize: int
    bookedCount: int
    currentBookings: int
    spotsLeft: int | None
    waitlistCount: int
    allowWaitlist: bool
    timeStatus: TimeStatus
    availabilityStatus: AvailabilityStatus
    recurrenceId: int | None
    occurrenceIndex: int | None
    recurrence: ClassRecurrence | None
    instructors: list[InstructorSummary]
    externalSource: str | None
    externalId: str | None
    createdAt: dt.datetime
    updatedAt: dt.datetime
    translations: Annotated[dict | None, Describe("Every locale's copy keyed by language code.")]
    series: NotRequired[ClassSeriesInfo]


def _recurrence(row) -> ClassRecurrence | None:
    if row["series_id"] is None:
        return None
    frequency = row["series__frequency"]
    return {
        "id": row["series_id"],
        "frequency": frequency,
        "interval": row["series__interval"],
        "daysOfWeek": list(row["series__days_of_week"] or []) if frequency == Frequency.WEEKLY else [],
        "endsType": row["series__ends_type"],
        "endsDate": row["series__ends_date"],
        "endsTotalOccurrences": row["series__ends_total_occurrences"],
        "status": row["series__status"],
    }


class ClassResource(Resource):
    shape = Class
    model = models.ClassOccurrence
    columns = (
        "series_id",
        "club__name",
        "club__slug",
        "club__timezone",
        "area__name",
        "class_type__name",
        "class_type__slug",
        "class_type__max_party_size",
        "class_type__translations",
        "series__frequency",
        "series__interval",
        "series__days_of_week",
        "series__ends_type",
        "series__ends_date",
        "series__ends_total_occurrences",
        "series__status",
        "booked_total",
        "walk_in_total",
        "waitlist_total",
        "instructor_ids",
    )

    def annotate(self, queryset):
        through = models.ClassOccurrence.instructors.through
        instructor_ids = related_ids(through.objects, "classoccurrence_id", "instructor_id")
        return queryset.annotate(**class_seat_counts(), instructor_ids=instructor_ids)

    def load(self, rows, ctx: PresentContext) -> None:
        """The page's instructors (one query), presented once each."""
        ids = {i for row in rows for i in row["instructor_ids"] or ()}
        instructors = {}
        if ids:
            queryset = Instructor.objects.filter(organization=ctx.organization, id__in=ids).order_by()
            for row in INSTRUCTOR_SUMMARY.values(queryset):
                instructors[row["id"]] = INSTRUCTOR_SUMMARY.present(row, ctx)
        ctx.memo["class.instructors"] = instructors

    def fresh_until(self, queryset, ctx: PresentContext) -> dt.datetime | None:
        """The next end of a class: its `timeStatus` turns `past`, and the `timeStatus` filter moves it."""
        return queryset.filter(end_time__gte=ctx.now).order_by().aggregate(next_end=Min("end_time"))["next_end"]

    def present(self, row: dict, ctx: PresentContext) -> Class:
        organization = ctx.organization
        instructors = ctx.memo["class.instructors"]
        translations = row["translations"] or None
        booked = row["booked_total"] + row["walk_in_total"]
        capacity = row["max_capacity"]
        spots_left = None if capacity is None else max(0, capacity - booked)
        start, end = row["start_time"], row["end_time"]
        club_tz = clock.zone(row["club__timezone"])
        price_before_tax = row["price_before_tax"]
        class_type = None
        max_party = 1
        if row["class_type_id"] is not None:
            class_type = ctx.once(
                ("class_type", row["class_type_id"]),
                lambda: {
                    "id": row["class_type_id"],
                    "name": ctx.translate(row["class_type__translations"], "name", row["class_type__name"]),
                    "slug": row["class_type__slug"],
                    "maxPartySize": row["class_type__max_party_size"],
                },
            )
            max_party = row["class_type__max_party_size"] or 1
        return self.body(
            row,
            ctx,
            **_name_slug_description(row, ctx),
            classType=class_type,
            club={"id": row["club_id"], "name": row["club__name"], "slug": row["club__slug"]},
            area={"id": row["area_id"], "name": row["area__name"]} if row["area_id"] is not None else None,
            startTime=start,
            endTime=end,
            durationMinutes=int((end - start).total_seconds() // 60),
            isMultiDay=start.astimezone(club_tz).date() != end.astimezone(club_tz).date(),
            price=ctx.once(("price", price_before_tax), lambda: number(organization.tax_inclusive(price_before_tax))),
            priceBeforeTax=number(price_before_tax),
            maxCapacity=capacity,
            maxPartySize=max_party,
            bookedCount=booked,
            currentBookings=booked,
            spotsLeft=spots_left,
            waitlistCount=row["waitlist_total"],
            timeStatus=TimeStatus.PAST if end < ctx.now else TimeStatus.UPCOMING,
            availabilityStatus=AvailabilityStatus.FULL if spots_left == 0 else AvailabilityStatus.AVAILABLE,
            recurrenceId=row["series_id"],
            recurrence=_recurrence(row),
            instructors=[instructors[i] for i in sorted(row["instructor_ids"] or ()) if i in instructors],
            translations=translations,
        )


class ClassType(TypedDict):
    id: int
    name: str
    slug: str | None
    description: str | None
    maxPartySize: Annotated[
        int | None, Describe("Default party size of classes of this type; a class uses 1 when null.")
    ]
    color: str | None
    sport: str | None
    isActive: bool
    translations: Annotated[dict, Describe("{locale: {name, description}}; read-only.")]
    createdAt: dt.datetime
    updatedAt: dt.datetime


class ClassTypeResource(Resource):
    shape = ClassType
    model = models.ClassType

    def present(self, row: dict, ctx: PresentContext) -> ClassType:
        return self.body(row, ctx, **_name_slug_description(row, ctx), translations=row["translations"] or {})


class ProgressionLevel(TypedDict):
    id: int
    name: str
    position: int


class ProgressionTrack(TypedDict):
    id: int
    name: str
    slug: str
    description: str | None
    classTypeIds: list[int]
    levels: list[ProgressionLevel]
    translations: dict
    createdAt: dt.datetime
    updatedAt: dt.datetime


class ProgressionTrackResource(Resource):
    shape = ProgressionTrack
    model = models.ProgressionTrack
    columns = ("class_type_ids",)

    def annotate(self, queryset):
        through = models.ProgressionTrack.class_types.through
        return queryset.annotate(class_type_ids=related_ids(through.objects, "progressiontrack_id", "classtype_id"))

    def load(self, rows, ctx: PresentContext) -> None:
        """The page's levels, in one query."""
        levels: dict[int, list] = {row["id"]: [] for row in rows}
        if levels:
            queryset = models.ProgressionLevel.objects.filter(track_id__in=list(levels)).order_by("position", "id")
            for level in queryset.values("track_id", "id", "name", "position"):
                levels[level.pop("track_id")].append(level)
        ctx.memo["track.levels"] = levels

    def present(self, row: dict, ctx: PresentContext) -> ProgressionTrack:
        return self.body(
            row,
            ctx,
            **_name_slug_description(row, ctx),
            classTypeIds=sorted(row["class_type_ids"] or []),
            levels=ctx.memo["track.levels"][row["id"]],
            translations=row["translations"] or {},
        )


CLASS = ClassResource()
CLASS_TYPE = ClassTypeResource()
PROGRESSION_TRACK = ProgressionTrackResource()


def load_classes(organization, ids, locale=None) -> dict[int, dict]:
    """Classes by id (two queries for any number), e.g. for event payloads."""
    queryset = models.ClassOccurrence.objects.filter(organization=organization)
    return CLASS.get_many(queryset, ids, PresentContext(organization, locale=locale))
