"""The Class response shape, built from one annotated, prefetched queryset (no per-row queries)."""

from zoneinfo import ZoneInfo

from django.db.models import Count, IntegerField, OuterRef, Prefetch, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from apps.api.presenters import money, resolve_translation
from apps.bookings.models import ACTIVE_BOOKING_STATUSES, ACTIVE_WAITLIST_STATUSES, Booking, CheckIn, WaitlistEntry
from apps.instructors.models import Instructor
from apps.instructors.presenters import present_public_instructor

from .models import ClassOccurrence


def _count_subquery(queryset, fk: str):
    counted = queryset.filter(**{fk: OuterRef("pk")}).order_by().values(fk).annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def annotate_counts(queryset):
    """`booked_total` (active class bookings + standalone walk-in check-ins) and `waitlist_total`."""
    bookings = Booking.objects.filter(type="class", status__in=ACTIVE_BOOKING_STATUSES)
    walk_ins = CheckIn.objects.filter(method="membership", booking__isnull=True)
    waitlist = WaitlistEntry.objects.filter(status__in=ACTIVE_WAITLIST_STATUSES)
    return queryset.annotate(
        active_bookings_total=_count_subquery(bookings, "class_occurrence"),
        walk_in_total=_count_subquery(walk_ins, "class_occurrence"),
        waitlist_total=_count_subquery(waitlist, "class_occurrence"),
    )


def class_queryset(organization=None):
    """Every Class the presenter needs, in a fixed number of queries whatever the page size."""
    queryset = ClassOccurrence.objects.all()
    if organization is not None:
        queryset = queryset.filter(organization=organization)
    queryset = queryset.select_related("organization", "club", "area", "class_type", "series").prefetch_related(
        Prefetch("instructors", queryset=Instructor.objects.select_related("contact", "type").order_by("id"))
    )
    return annotate_counts(queryset)


def present_recurrence(series) -> dict | None:
    if series is None:
        return None
    return {
        "id": series.id,
        "frequency": series.frequency,
        "interval": series.interval,
        "daysOfWeek": list(series.days_of_week or []) if series.frequency == "weekly" else [],
        "endsType": series.ends_type,
        "endsDate": series.ends_date,
        "endsTotalOccurrences": series.ends_total_occurrences,
        "status": series.status,
    }


def make_context(organization, locale: str | None = None) -> dict:
    return {"organization": organization, "locale": locale, "now": timezone.now()}


def present_class(obj: ClassOccurrence, ctx: dict) -> dict:
    organization = ctx["organization"]
    locale = ctx.get("locale")
    default_language = organization.default_language
    translations = obj.translations or None
    booked = getattr(obj, "active_bookings_total", 0) + getattr(obj, "walk_in_total", 0)
    spots_left = None if obj.max_capacity is None else max(0, obj.max_capacity - booked)
    class_type = obj.class_type
    club = obj.club
    area = obj.area
    club_tz = ZoneInfo(club.timezone) if club is not None else ZoneInfo("UTC")
    max_party = class_type.max_party_size if class_type is not None and class_type.max_party_size else 1
    duration = int((obj.end_time - obj.start_time).total_seconds() // 60)
    return {
        "id": obj.id,
        "name": resolve_translation(translations, locale, default_language, "name", obj.name),
        "slug": obj.slug,
        "description": resolve_translation(translations, locale, default_language, "description", obj.description),
        "images": list(obj.images or []),
        "classTypeId": obj.class_type_id,
        "classType": (
            {
                "id": class_type.id,
                "name": resolve_translation(class_type.translations, locale, default_language, "name", class_type.name),
                "slug": class_type.slug,
                "maxPartySize": class_type.max_party_size,
            }
            if class_type is not None
            else None
        ),
        "clubId": obj.club_id,
        "club": {"id": club.id, "name": club.name, "slug": club.slug} if club is not None else None,
        "areaId": obj.area_id,
        "area": {"id": area.id, "name": area.name} if area is not None else None,
        "startTime": obj.start_time,
        "endTime": obj.end_time,
        "durationMinutes": duration,
        "isMultiDay": obj.start_time.astimezone(club_tz).date() != obj.end_time.astimezone(club_tz).date(),
        "status": obj.status,
        "visibility": obj.visibility,
        "sport": obj.sport,
        "color": obj.color,
        "price": organization.tax_inclusive(obj.price_before_tax),
        "priceBeforeTax": money(obj.price_before_tax),
        "isFree": obj.is_free,
        "maxCapacity": obj.max_capacity,
        "maxPartySize": max_party,
        "bookedCount": booked,
        "currentBookings": booked,
        "spotsLeft": spots_left,
        "waitlistCount": getattr(obj, "waitlist_total", 0),
        "allowWaitlist": obj.allow_waitlist,
        "timeStatus": "past" if obj.end_time < ctx["now"] else "upcoming",
        "availabilityStatus": "full" if spots_left == 0 else "available",
        "recurrenceId": obj.series_id,
        "occurrenceIndex": obj.occurrence_index,
        "recurrence": present_recurrence(obj.series),
        "instructors": [present_public_instructor(i) for i in obj.instructors.all()],
        "externalSource": obj.external_source,
        "externalId": obj.external_id,
        "createdAt": obj.created_at,
        "updatedAt": obj.updated_at,
        "translations": translations,
    }


def load_classes(organization, ids, locale=None) -> dict[int, dict]:
    """Presented classes by id (one queryset for any number)."""
    ctx = make_context(organization, locale)
    return {obj.id: present_class(obj, ctx) for obj in class_queryset(organization).filter(id__in=list(ids))}


def load_class(organization, pk, locale=None) -> dict:
    return load_classes(organization, [pk], locale)[pk]
