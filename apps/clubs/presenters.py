"""Response shapes of clubs, areas, area types and blocks: plain functions over prefetched rows, no queries.

`present_club` expects the queryset of `club_queryset()` (active areas prefetched, public rating annotated) and a
context from `club_context()` (amenities of the whole page, fetched in one query).
"""

import datetime as dt

from django.db.models import Avg, Count, Prefetch, Q

from apps.api.presenters import money

from .models import Amenity, Area, Club


def club_queryset():
    """Clubs with what `present_club` reads: active areas (for images) and the public rating."""
    return Club.objects.annotate(
        rating_average=Avg("reviews__rating", filter=Q(reviews__is_public=True)),
        rating_total=Count("reviews", filter=Q(reviews__is_public=True)),
    ).prefetch_related(
        Prefetch(
            "areas",
            queryset=Area.objects.filter(is_active=True)
            .only("id", "club_id", "images", "position")
            .order_by("position", "id"),
            to_attr="active_areas",
        )
    )


def club_context(clubs, organization, locale: str | None) -> dict:
    """One query for every amenity named by `clubs`."""
    codes = {code for club in clubs for code in (club.amenities or []) if isinstance(code, str)}
    amenities = {a.code: a for a in Amenity.objects.filter(code__in=codes)} if codes else {}
    return {"amenities": amenities, "locale": locale, "default_language": organization.default_language}


def resolve_amenity(code: str, amenity: Amenity | None, locale, default_language) -> dict:
    if amenity is None:  # a code missing from the catalogue is still shown, named by its id
        return {"id": code, "name": code, "icon": None, "category": None}
    names = amenity.names or {}
    name = (locale and names.get(locale)) or names.get(default_language) or amenity.code
    return {"id": amenity.code, "name": name, "icon": amenity.icon, "category": amenity.category}


def club_images(club) -> list[str]:
    """The club's images, then each active area's, de-duplicated with the first occurrence kept."""
    areas = getattr(club, "active_areas", None)
    if areas is None:
        areas = club.areas.filter(is_active=True).order_by("position", "id")
    seen, images = set(), []
    for image in list(club.images or []) + [img for area in areas for img in (area.images or [])]:
        if image not in seen:
            seen.add(image)
            images.append(image)
    return images


def present_club(club, ctx: dict) -> dict:
    amenities = [code for code in (club.amenities or []) if isinstance(code, str)]
    data = {
        "id": club.id,
        "name": club.name,
        "slug": club.slug,
        "address": club.address,
        "city": club.city,
        "state": club.state,
        "country": club.country,
        "postalCode": club.postal_code,
        "phone": club.phone,
        "email": club.email,
        "website": club.website,
        "logo": club.logo,
        "images": club_images(club),
        "amenities": amenities,
        "amenitiesResolved": [
            resolve_amenity(code, ctx["amenities"].get(code), ctx.get("locale"), ctx.get("default_language"))
            for code in amenities
        ],
        "sports": list(club.sports or []),
        "socialProfiles": dict(club.social_profiles or {}),
        "timezone": club.timezone,
    }
    total = getattr(club, "rating_total", None)
    if total:
        data["rating"] = {"average": round(float(club.rating_average), 1), "total": total}
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
