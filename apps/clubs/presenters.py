"""Response shapes of clubs, areas, area types and blocks: plain functions over prefetched rows, no queries.

Clubs are read as value rows (`club_rows()`: only the fields the shape shows, the public rating as two correlated
subqueries, so the page count stays a plain `COUNT(*)`), then `club_context()` fetches, for the whole page, the
active areas' images and the amenities in one query each. `present_club(row, ctx)` does no query.
"""

import datetime as dt
from collections import defaultdict

from django.db.models import Avg, Count, IntegerField, OuterRef, QuerySet, Subquery

from apps.api.presenters import money

from .models import Amenity, Area, ClubReview

CLUB_FIELDS = (
    "id",
    "name",
    "slug",
    "address",
    "city",
    "state",
    "country",
    "postal_code",
    "phone",
    "email",
    "website",
    "logo",
    "images",
    "amenities",
    "sports",
    "social_profiles",
    "timezone",
)


def club_rows(queryset: QuerySet) -> QuerySet:
    """`queryset` (clubs, filtered and ordered) as value rows with what `present_club` reads."""
    public = ClubReview.objects.filter(club=OuterRef("pk"), is_public=True).order_by().values("club")
    return queryset.annotate(
        rating_average=Subquery(public.annotate(v=Avg("rating")).values("v")[:1]),
        rating_total=Subquery(public.annotate(v=Count("id")).values("v")[:1], output_field=IntegerField()),
    ).values(*CLUB_FIELDS, "rating_average", "rating_total")


def club_context(rows, organization, locale: str | None) -> dict:
    """Two queries for the whole page: active areas' images (in area order) and every amenity named."""
    ids = [row["id"] for row in rows]
    area_images = defaultdict(list)
    if ids:
        for club_id, images in (
            Area.objects.filter(club_id__in=ids, is_active=True)
            .order_by("club_id", "position", "id")
            .values_list("club_id", "images")
        ):
            area_images[club_id].append(images)
    codes = {code for row in rows for code in (row["amenities"] or []) if isinstance(code, str)}
    amenities = {a.code: a for a in Amenity.objects.filter(code__in=codes)} if codes else {}
    return {
        "amenities": amenities,
        "area_images": area_images,
        "locale": locale,
        "default_language": organization.default_language,
    }


def resolve_amenity(code: str, amenity: Amenity | None, locale, default_language) -> dict:
    if amenity is None:  # a code missing from the catalogue is still shown, named by its id
        return {"id": code, "name": code, "icon": None, "category": None}
    names = amenity.names or {}
    name = (locale and names.get(locale)) or names.get(default_language) or amenity.code
    return {"id": amenity.code, "name": name, "icon": amenity.icon, "category": amenity.category}


def club_images(own: list, area_images: list[list]) -> list[str]:
    """The club's images, then each active area's, de-duplicated with the first occurrence kept."""
    seen, images = set(), []
    for group in [own or [], *area_images]:
        for image in group or []:
            if image not in seen:
                seen.add(image)
                images.append(image)
    return images


def present_club(row: dict, ctx: dict) -> dict:
    amenities = [code for code in (row["amenities"] or []) if isinstance(code, str)]
    locale, default_language, catalogue = ctx.get("locale"), ctx.get("default_language"), ctx["amenities"]
    data = {
        "id": row["id"],
        "name": row["name"],
        "slug": row["slug"],
        "address": row["address"],
        "city": row["city"],
        "state": row["state"],
        "country": row["country"],
        "postalCode": row["postal_code"],
        "phone": row["phone"],
        "email": row["email"],
        "website": row["website"],
        "logo": row["logo"],
        "images": club_images(row["images"], ctx["area_images"].get(row["id"], [])),
        "amenities": amenities,
        "amenitiesResolved": [
            resolve_amenity(code, catalogue.get(code), locale, default_language) for code in amenities
        ],
        "sports": list(row["sports"] or []),
        "socialProfiles": dict(row["social_profiles"] or {}),
        "timezone": row["timezone"],
    }
    if row["rating_total"]:  # omitted, not null, without public reviews
        data["rating"] = {"average": round(float(row["rating_average"]), 1), "total": row["rating_total"]}
    return data


def present_area_type(area_type) -> dict:
    return {
        "id": area_type.id,
        "name": area_type.name,
        "slug": area_type.slug,
        "maxPlayers": area_type.max_players,
        "createdAt": area_type.created_at,
        "updatedAt": area_type.updated_at,
    }


def present_area(area) -> dict:
    area_type = area.area_type
    return {
        "id": area.id,
        "clubId": area.club_id,
        "name": area.name,
        "areaTypeId": area.area_type_id,
        "areaType": {"id": area_type.id, "name": area_type.name} if area_type else None,
        "sports": list(area.sports or []),
        "hourlyRate": money(area.hourly_rate),
        "isIndoor": area.is_indoor,
        "isActive": area.is_active,
        "images": list(area.images or []),
        "position": area.position,
        "createdAt": area.created_at,
        "updatedAt": area.updated_at,
    }


def utc(value: dt.datetime | None) -> dt.datetime | None:
    """An aware date-time in UTC, so it renders with `Z` whatever offset it was written with."""
    return None if value is None else value.astimezone(dt.UTC)


def present_block(block) -> dict:
    return {
        "id": block.id,
        "clubId": block.club_id,
        "areaId": block.area_id,
        "startTime": utc(block.start_time),
        "endTime": utc(block.end_time),
        "reason": block.reason,
        "createdAt": block.created_at,
    }
