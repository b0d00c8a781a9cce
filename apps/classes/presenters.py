"""The Class response shape, built from plain value rows (no model instances, no per-row queries).

One page costs two queries whatever its size: the page itself (`.values()` with the club, area, class type and
series columns joined, the booked/walk-in/waitlist counts and the instructor ids as SQL subqueries), and the
distinct instructors of the page. Per-request constants (tax-inclusive prices, club zones, resolved class-type
names, presented instructors) are computed once per distinct value.
"""

from zoneinfo import ZoneInfo

from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from apps.api.expressions import related_ids
from apps.api.fastread import ValuesPage, fetch_values
from apps.api.presenters import money, resolve_translation
from apps.bookings.models import ACTIVE_BOOKING_STATUSES, ACTIVE_WAITLIST_STATUSES, Booking, CheckIn, WaitlistEntry
from apps.instructors.models import Instructor
from apps.instructors.presenters import PUBLIC_INSTRUCTOR_COLUMNS, present_public_instructor_row

from .models import ClassOccurrence

# Columns of one Class row (joined relations included) read by `present_class_row`.
CLASS_COLUMNS = (
    "id",
    "name",
    "slug",
    "description",
    "images",
    "class_type_id",
    "club_id",
    "area_id",
    "start_time",
    "end_time",
    "status",
    "visibility",
    "sport",
    "color",
    "price_before_tax",
    "is_free",
    "max_capacity",
    "allow_waitlist",
    "series_id",
    "occurrence_index",
    "external_source",
    "external_id",
    "created_at",
    "updated_at",
    "translations",
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


def _count_subquery(queryset, fk: str):
    counted = queryset.filter(**{fk: OuterRef("pk")}).order_by().values(fk).annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def annotate_counts(queryset):
    """`booked_total` (active class bookings), `walk_in_total` (standalone check-ins), `waitlist_total`."""
    bookings = Booking.objects.filter(type="class", status__in=ACTIVE_BOOKING_STATUSES)
    walk_ins = CheckIn.objects.filter(method="membership", booking__isnull=True)
    waitlist = WaitlistEntry.objects.filter(status__in=ACTIVE_WAITLIST_STATUSES)
    return queryset.annotate(
        booked_total=_count_subquery(bookings, "class_occurrence"),
        walk_in_total=_count_subquery(walk_ins, "class_occurrence"),
        waitlist_total=_count_subquery(waitlist, "class_occurrence"),
    )


JSON_COLUMNS = ("images", "translations", "class_type__translations", "series__days_of_week")


def ClassRows(queryset) -> ValuesPage:  # noqa: N802 - reads like the page source it returns
    """Page source of Classes: value rows of `queryset` (filtered and ordered ClassOccurrences)."""
    return ValuesPage(queryset, class_rows)


def class_rows(queryset):
    """`queryset` (ClassOccurrence, filtered and ordered) as a `.values()` queryset of CLASS_COLUMNS."""
    through = ClassOccurrence.instructors.through
    instructor_ids = related_ids(through.objects, "classoccurrence_id", "instructor_id")
    return annotate_counts(queryset).annotate(instructor_ids=instructor_ids).values(*CLASS_COLUMNS)


def make_context(organization, locale: str | None = None) -> dict:
    return {"organization": organization, "locale": locale, "now": timezone.now()}


def _recurrence(row) -> dict | None:
    if row["series_id"] is None:
        return None
    frequency = row["series__frequency"]
    return {
        "id": row["series_id"],
        "frequency": frequency,
        "interval": row["series__interval"],
        "daysOfWeek": list(row["series__days_of_week"] or []) if frequency == "weekly" else [],
        "endsType": row["series__ends_type"],
        "endsDate": row["series__ends_date"],
        "endsTotalOccurrences": row["series__ends_total_occurrences"],
        "status": row["series__status"],
    }


class _Cache(dict):
    """Per-request memo: `cache.get_or(key, build)`."""

    def get_or(self, key, build):
        try:
            return self[key]
        except KeyError:
            value = self[key] = build()
            return value


def present_class_row(row: dict, ctx: dict, instructors: dict[int, dict]) -> dict:
    organization = ctx["organization"]
    locale = ctx.get("locale")
    default_language = organization.default_language
    cache = ctx.setdefault("_cache", _Cache())
    translations = row["translations"] or None
    booked = row["booked_total"] + row["walk_in_total"]
    capacity = row["max_capacity"]
    spots_left = None if capacity is None else max(0, capacity - booked)
    start, end = row["start_time"], row["end_time"]
    club_tz = cache.get_or(("tz", row["club__timezone"]), lambda: ZoneInfo(row["club__timezone"] or "UTC"))
    price_before_tax = row["price_before_tax"]
    class_type = None
    max_party = 1
    if row["class_type_id"] is not None:
        class_type = cache.get_or(
            ("type", row["class_type_id"]),
            lambda: {
                "id": row["class_type_id"],
                "name": resolve_translation(
                    row["class_type__translations"], locale, default_language, "name", row["class_type__name"]
                ),
                "slug": row["class_type__slug"],
                "maxPartySize": row["class_type__max_party_size"],
            },
        )
        max_party = row["class_type__max_party_size"] or 1
    return {
        "id": row["id"],
        "name": resolve_translation(translations, locale, default_language, "name", row["name"]),
        "slug": row["slug"],
        "description": resolve_translation(translations, locale, default_language, "description", row["description"]),
        "images": list(row["images"] or []),
        "classTypeId": row["class_type_id"],
        "classType": class_type,
        "clubId": row["club_id"],
        "club": {"id": row["club_id"], "name": row["club__name"], "slug": row["club__slug"]},
        "areaId": row["area_id"],
        "area": {"id": row["area_id"], "name": row["area__name"]} if row["area_id"] is not None else None,
        "startTime": start,
        "endTime": end,
        "durationMinutes": int((end - start).total_seconds() // 60),
        "isMultiDay": start.astimezone(club_tz).date() != end.astimezone(club_tz).date(),
        "status": row["status"],
        "visibility": row["visibility"],
        "sport": row["sport"],
        "color": row["color"],
        "price": cache.get_or(("price", price_before_tax), lambda: organization.tax_inclusive(price_before_tax)),
        "priceBeforeTax": money(price_before_tax),
        "isFree": row["is_free"],
        "maxCapacity": capacity,
        "maxPartySize": max_party,
        "bookedCount": booked,
        "currentBookings": booked,
        "spotsLeft": spots_left,
        "waitlistCount": row["waitlist_total"],
        "allowWaitlist": row["allow_waitlist"],
        "timeStatus": "past" if end < ctx["now"] else "upcoming",
        "availabilityStatus": "full" if spots_left == 0 else "available",
        "recurrenceId": row["series_id"],
        "occurrenceIndex": row["occurrence_index"],
        "recurrence": _recurrence(row),
        "instructors": [instructors[i] for i in sorted(row["instructor_ids"] or ()) if i in instructors],
        "externalSource": row["external_source"],
        "externalId": row["external_id"],
        "createdAt": row["created_at"],
        "updatedAt": row["updated_at"],
        "translations": translations,
    }


def load_instructors(ids) -> dict[int, dict]:
    """Public Instructor shapes by id, in one query."""
    ids = set(ids)
    if not ids:
        return {}
    queryset = Instructor.objects.filter(id__in=ids).order_by().values(*PUBLIC_INSTRUCTOR_COLUMNS)
    rows = fetch_values(queryset)
    return {row["id"]: present_public_instructor_row(row) for row in rows}


def present_rows(rows, ctx: dict) -> list[dict]:
    """Classes from value rows of `class_rows` (one more query for the page's instructors)."""
    rows = list(rows)
    instructors = load_instructors(i for row in rows for i in row["instructor_ids"] or ())
    return [present_class_row(row, ctx, instructors) for row in rows]


def load_classes(organization, ids, locale=None) -> dict[int, dict]:
    """Presented classes by id (two queries for any number)."""
    ctx = make_context(organization, locale)
    rows = ClassRows(ClassOccurrence.objects.filter(organization=organization, id__in=list(ids)).order_by()).all()
    return {body["id"]: body for body in present_rows(rows, ctx)}


def load_class(organization, pk, locale=None) -> dict:
    return load_classes(organization, [pk], locale)[pk]
