"""`GET /v1/public/network/clubs/{slug}`: one listed club, in six queries whatever it holds (the club with its
organization and rating, amenities, courts, passes, the next 14 days' public classes with their seat counts and
instructor ids, and the instructors shown with the classes' instructor names).

The queries of the club, its courts, its upcoming classes and their instructors are also the gym page's
(`pages/page.py`): one reading of a club for both."""

import datetime as dt
import html
import re

from django.db.models import Q
from django.utils import timezone
from django.utils.html import strip_tags

from apps.api.expressions import related_ids
from apps.api.presenters import number
from apps.api.resources import PresentContext
from apps.api.validators import web_links
from apps.billing.models import Plan
from apps.classes.choices import ClassStatus, Visibility
from apps.classes.models import ClassOccurrence
from apps.clubs.models import Amenity, Area
from apps.clubs.resources import CLUB, club_images, club_rating, resolve_amenity
from apps.contacts.models import display_name
from apps.instructors.models import Instructor
from apps.kernel import clock
from apps.occupancy.queries import class_seat_counts

from . import listing
from .shapes import ClubProfile

LINE_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)
UPCOMING_DAYS = 14
MAX_UPCOMING_CLASSES = 50


class ClubNotFound(Exception):
    """No listed, active club of an active organization has this slug."""


def plain_text(document) -> str | None:
    """A block-editor document (`{"blocks": [{"type", "data": {...}}]}`) as plain text: one paragraph per block,
    list items on their own lines, markup removed."""
    if not isinstance(document, dict):
        return None
    lines = []

    def text(value) -> str:
        if value is None:
            return ""
        return html.unescape(strip_tags(LINE_BREAK.sub("\n", str(value)))).strip()

    def items(values):
        for item in values or []:
            if isinstance(item, dict):
                lines.append(text(item.get("content")))
                items(item.get("items"))
            else:
                lines.append(text(item))

    for block in document.get("blocks") or []:
        if not isinstance(block, dict):
            continue
        data = block.get("data") if isinstance(block.get("data"), dict) else block
        if isinstance(data.get("items"), list):
            items(data["items"])
        elif data.get("text") is not None:
            lines.append(text(data["text"]))
        elif data.get("code") is not None:
            lines.append(text(data["code"]))
    result = "\n".join(line for line in lines if line)
    return result or None


COURT_COLUMNS = ("id", "name", "sports", "area_type_id", "area_type__name", "is_indoor", "hourly_rate", "images")


def listed_club(slug: str):
    """The listed club under `slug` with its organization and public rating (`rating_total`, `rating_average`), or
    None. `Club.slug` is unique per organization only; while two listed clubs share one, the oldest wins."""
    if not slug or len(slug) > 100:
        return None
    return CLUB.annotate(listing.listed_clubs().filter(slug=slug).select_related("organization")).order_by("id").first()


def active_courts(club) -> list[dict]:
    """The club's active courts (rows of `COURT_COLUMNS`), by position."""
    return list(Area.objects.filter(club=club, is_active=True).order_by("position", "id").values(*COURT_COLUMNS))


def upcoming_classes(club, now: dt.datetime) -> list[dict]:
    """The club's active `Public` classes of the next `UPCOMING_DAYS` days (at most `MAX_UPCOMING_CLASSES`), as rows
    with their seat counts (`booked_total`, `walk_in_total`) and `instructor_ids`."""
    through = ClassOccurrence.instructors.through
    return list(
        ClassOccurrence.objects.filter(
            club=club,
            status=ClassStatus.ACTIVE,
            visibility=Visibility.PUBLIC,
            start_time__gte=now,
            start_time__lt=now + dt.timedelta(days=UPCOMING_DAYS),
        )
        .annotate(
            **class_seat_counts(), instructor_ids=related_ids(through.objects, "classoccurrence_id", "instructor_id")
        )
        .order_by("start_time", "id")
        .values(
            "id",
            "name",
            "translations",
            "class_type__name",
            "class_type__translations",
            "start_time",
            "end_time",
            "price_before_tax",
            "is_free",
            "max_capacity",
            "booked_total",
            "walk_in_total",
            "instructor_ids",
        )[:MAX_UPCOMING_CLASSES]
    )


def club_instructors(club, classes: list[dict], *, available: bool = True) -> tuple[list[dict], dict[int, str]]:
    """(the instructors of the club's profile: those teaching `classes` and, with `available`, the active ones
    available at the club, by name; every one's display name by id). The gym page asks for the teaching ones only
    (a JSON containment SQLite cannot run)."""
    teaching = {i for row in classes for i in row["instructor_ids"] or ()}
    shown = Q(id__in=teaching)
    if available:
        shown |= Q(is_active=True, weekly_availability__contains=[{"clubId": club.id}])
    instructors = list(
        Instructor.objects.filter(shown, organization=club.organization)
        .order_by("contact__first_name", "contact__last_name", "id")
        .values(
            "id",
            "contact__first_name",
            "contact__last_name",
            "contact__profile_image",
            "sports",
            "bio",
            "hourly_rate",
            "is_active",
        )
    )
    names = {row["id"]: display_name(row["contact__first_name"], row["contact__last_name"]) for row in instructors}
    return instructors, names


def class_instructor_names(row: dict, names: dict[int, str]) -> list[str]:
    """The names of a class row's instructors, by instructor id."""
    return [names[i] for i in sorted(row["instructor_ids"] or ()) if names.get(i)]


def club_profile(slug: str, locale: str | None = None, now: dt.datetime | None = None) -> ClubProfile:
    now = timezone.now() if now is None else now
    club = listed_club(slug)
    if club is None:
        raise ClubNotFound(slug)
    organization = club.organization
    ctx = PresentContext(organization=organization, locale=locale, now=now)

    codes = [code for code in (club.amenities or []) if isinstance(code, str)]
    catalogue = {a.code: a for a in Amenity.objects.filter(code__in=codes)} if codes else {}
    areas = active_courts(club)
    passes = list(
        Plan.objects.filter(
            Q(club__isnull=True) | Q(club=club),
            organization=organization,
            is_active=True,
            retired_at__isnull=True,
            visibility=Visibility.PUBLIC,
        )
        .order_by("price", "name", "id")
        .values("id", "name", "description", "price", "signup_fee", "billing_frequency", "translations")
    )
    classes = upcoming_classes(club, now)
    instructors, names = club_instructors(club, classes)
    club_url = listing.club_url(club.slug)
    tz = club.timezone or "UTC"

    return {
        "slug": club.slug,
        "name": club.name,
        "description": club.description or "",
        "address": club.address,
        "city": club.city,
        "state": club.state,
        "country": club.country,
        "postalCode": club.postal_code,
        "phone": club.phone,
        "email": club.email,
        "website": club.website,
        "logo": club.logo,
        "images": club_images(club.images, [a["images"] for a in areas]),
        "amenities": [resolve_amenity(c, catalogue.get(c), locale, organization.default_language) for c in codes],
        "sports": list(club.sports or []),
        "rating": club_rating(vars(club)),
        "socialProfiles": web_links(club.social_profiles),
        "timezone": tz,
        "currency": organization.currency,
        "url": club_url,
        "courts": [
            {
                "id": a["id"],
                "name": a["name"],
                "sports": list(a["sports"] or []),
                "areaType": a["area_type__name"],
                "isIndoor": a["is_indoor"],
                "hourlyRate": number(organization.tax_inclusive(a["hourly_rate"])),
            }
            for a in areas
        ],
        "passes": [
            {
                "id": p["id"],
                "name": ctx.translate(p["translations"], "name", p["name"]),
                "description": ctx.translate(p["translations"], "description", p["description"]),
                "price": number(p["price"]),
                "signupFee": number(p["signup_fee"]),
                "billingFrequency": p["billing_frequency"],
            }
            for p in passes
        ],
        "instructors": [
            {
                "id": row["id"],
                "name": names[row["id"]] or None,
                "profileImage": row["contact__profile_image"],
                "sports": list(row["sports"] or []),
                "bio": plain_text(row["bio"]),
                "hourlyRate": number(organization.tax_inclusive(row["hourly_rate"])),
            }
            for row in instructors
            if row["is_active"]
        ],
        "upcomingClasses": [_class(row, ctx, names, club_url, tz) for row in classes],
    }


def _class(row: dict, ctx: PresentContext, names: dict, club_url: str, tz: str) -> dict:
    start, end = row["start_time"], row["end_time"]
    capacity = row["max_capacity"]
    booked = row["booked_total"] + row["walk_in_total"]
    class_type = row["class_type__name"]
    if class_type is not None:
        class_type = ctx.translate(row["class_type__translations"], "name", class_type)
    # Marketplace date-times carry the club's own offset (a platform response would be UTC `Z`).
    zone = clock.zone(tz)
    start, end = start.astimezone(zone), end.astimezone(zone)
    return {
        "id": row["id"],
        "name": ctx.translate(row["translations"], "name", row["name"]),
        "classType": class_type,
        "startTime": start,
        "endTime": end,
        "durationMinutes": int((end - start).total_seconds() // 60),
        "instructors": class_instructor_names(row, names),
        "price": None if row["is_free"] else number(ctx.organization.tax_inclusive(row["price_before_tax"])),
        "isFree": row["is_free"],
        "spotsLeft": None if capacity is None else max(0, capacity - booked),
        "url": club_url + listing.page_query(date=start.date(), class_id=row["id"]),
    }
