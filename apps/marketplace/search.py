"""`GET /v1/public/search/clubs`: listed clubs matching a text, a sport, a place and a day, nearest first.

Three queries whatever the page size: the page (with the public rating as two correlated subqueries and, when a
point is known, the distance as a SQL expression), its count, and the page's area images and amenities (the
Platform API's club resource loads them the same way, two queries).
"""

import datetime as dt
from dataclasses import dataclass

from django.db.models import Q
from django.db.models.functions import Lower

from apps.api.resources import PresentContext
from apps.clubs.resources import CLUB, club_address, club_images, club_rating

from . import geo, listing
from .shapes import ClubListing

DEFAULT_RADIUS_KM = 50
MAX_RADIUS_KM = 500

COLUMNS = (
    "slug",
    "name",
    "address",
    "city",
    "state",
    "country",
    "postal_code",
    "logo",
    "images",
    "sports",
    "timezone",
)


@dataclass(frozen=True)
class Point:
    latitude: float
    longitude: float


def search_clubs(
    *,
    q: str | None = None,
    sport: str | None = None,
    point: Point | None = None,
    radius_km: float = DEFAULT_RADIUS_KM,
    day: dt.date | None = None,
    limit: int = 50,
    offset: int = 0,
) -> tuple[list[ClubListing], int]:
    """(the page, the total). With a point: clubs within `radius_km`, nearest first (then name, id); without:
    every listed club, by name (then id)."""
    queryset = listing.listed_clubs()
    if q:
        queryset = queryset.filter(Q(name__icontains=q) | Q(sports__contains=[q.strip().lower()]))
    if sport:
        queryset = queryset.filter(sports__contains=[sport.strip().lower()])
    if day is not None:
        queryset = queryset.filter(listing.open_on(day))
    if point is not None:
        queryset = (
            queryset.filter(listing.near(point.latitude, point.longitude, radius_km))
            .annotate(distance=geo.distance_expression(point.latitude, point.longitude))
            .filter(distance__lte=radius_km)
            .order_by("distance", Lower("name"), "id")
        )
    else:
        queryset = queryset.order_by(Lower("name"), "id")
    total = queryset.count()
    if total <= offset:
        return [], total
    columns = ("id", *COLUMNS, "rating_average", "rating_total") + (("distance",) if point is not None else ())
    rows = list(CLUB.annotate(queryset).values(*columns)[offset : offset + limit])
    ctx = PresentContext(organization=None)
    CLUB.load([{**row, "amenities": []} for row in rows], ctx)
    area_images = ctx.memo["club.area_images"]
    return [present(row, area_images.get(row["id"], [])) for row in rows], total


def present(row: dict, area_images: list) -> ClubListing:
    distance = row.get("distance")
    return {
        "slug": row["slug"],
        "name": row["name"],
        **club_address(row),
        "logo": row["logo"],
        "images": club_images(row["images"], area_images),
        "sports": list(row["sports"] or []),
        "rating": club_rating(row),
        "distanceKm": None if distance is None else round(distance, 2),
        "timezone": row["timezone"],
        "url": listing.club_url(row["slug"]),
    }
