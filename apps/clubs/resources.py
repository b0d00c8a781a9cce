"""Club, area type and area shapes (area blocks are apps/occupancy/resources.py).

Clubs are read as value rows (only the fields the shape shows, the public rating as two correlated subqueries, so
the page count stays a plain `COUNT(*)`); `load` fetches, for the whole page, the active areas' images and the
amenities in one query each.
"""

import datetime as dt
from collections import defaultdict
from typing import Annotated, NotRequired, TypedDict

from django.db.models import Avg, Count, IntegerField, OuterRef, Subquery

from apps.api.resources import Describe, PresentContext, Resource

from . import models


class AmenityResolved(TypedDict):
    id: str
    name: str
    icon: str | None
    category: str | None


class ClubRating(TypedDict):
    average: float
    total: int


class Club(TypedDict):
    id: int
    name: str
    slug: str | None
    address: str | None
    city: str | None
    state: str | None
    country: str | None
    postalCode: str | None
    phone: str | None
    email: str | None
    website: str | None
    logo: str | None
    images: list[str]
    amenities: list[str]
    amenitiesResolved: list[AmenityResolved]
    sports: list[str]
    rating: NotRequired[Annotated[ClubRating | None, Describe("Omitted when the club has no public reviews.")]]
    socialProfiles: dict[str, str]
    timezone: str


def resolve_amenity(code: str, amenity, locale, default_language) -> AmenityResolved:
    if amenity is None:  # a code missing from the catalogue is still shown, named by its id
        return {"id": code, "name": code, "icon": None, "category": None}
    names = amenity.names or {}
    name = (locale and names.get(locale)) or names.get(default_language) or amenity.code
    return {"id": amenity.code, "name": name, "icon": amenity.icon, "category": amenity.category}


def club_rating(row: dict) -> ClubRating | None:
    """The public rating of a club row with the `annotate()` columns (`rating_total`, `rating_average`); None
    without public reviews."""
    if not row["rating_total"]:
        return None
    return {"average": round(float(row["rating_average"]), 1), "total": row["rating_total"]}


def club_address(row: dict) -> dict:
    """The address keys of a club body, Platform and marketplace alike."""
    return {
        "address": row["address"],
        "city": row["city"],
        "state": row["state"],
        "country": row["country"],
        "postalCode": row["postal_code"],
    }


def club_images(own: list, area_images: list[list]) -> list[str]:
    """The club's images, then each active area's, de-duplicated with the first occurrence kept."""
    seen, images = set(), []
    for group in [own or [], *area_images]:
        for image in group or []:
            if image not in seen:
                seen.add(image)
                images.append(image)
    return images


class ClubResource(Resource):
    shape = Club
    model = models.Club
    columns = ("rating_average", "rating_total")

    def annotate(self, queryset):
        public = models.ClubReview.objects.filter(club=OuterRef("pk"), is_public=True).order_by().values("club")
        return queryset.annotate(
            rating_average=Subquery(public.annotate(v=Avg("rating")).values("v")[:1]),
            rating_total=Subquery(public.annotate(v=Count("id")).values("v")[:1], output_field=IntegerField()),
        )

    def load(self, rows, ctx: PresentContext) -> None:
        """Two queries for the whole page: active areas' images (in area order) and every amenity named."""
        ids = [row["id"] for row in rows]
        area_images = defaultdict(list)
        if ids:
            for club_id, images in (
                models.Area.objects.filter(club_id__in=ids, is_active=True)
                .order_by("club_id", "position", "id")
                .values_list("club_id", "images")
            ):
                area_images[club_id].append(images)
        codes = {code for row in rows for code in (row["amenities"] or []) if isinstance(code, str)}
        amenities = {a.code: a for a in models.Amenity.objects.filter(code__in=codes)} if codes else {}
        ctx.memo["club.amenities"] = amenities
        ctx.memo["club.area_images"] = area_images

    def present(self, row: dict, ctx: PresentContext) -> Club:
        amenities = [code for code in (row["amenities"] or []) if isinstance(code, str)]
        catalogue = ctx.memo["club.amenities"]
        locale, default_language = ctx.locale, ctx.default_language
        body = self.body(
            row,
            ctx,
            **club_address(row),
            images=club_images(row["images"], ctx.memo["club.area_images"].get(row["id"], [])),
            amenities=amenities,
            amenitiesResolved=[
                resolve_amenity(code, catalogue.get(code), locale, default_language) for code in amenities
            ],
        )
        rating = club_rating(row)
        if rating is not None:  # omitted, not null, without public reviews
            body["rating"] = rating
        return body


class AreaType(TypedDict):
    id: int
    name: str
    slug: str
    maxPlayers: int | None
    createdAt: dt.datetime
    updatedAt: dt.datetime


class AreaTypeRef(TypedDict):
    id: int
    name: str


class Area(TypedDict):
    id: int
    clubId: int
    name: str
    areaTypeId: int | None
    areaType: AreaTypeRef | None
    sports: list[str]
    hourlyRate: Annotated[float | None, Describe("Before tax.")]
    isIndoor: bool
    isActive: bool
    images: list[str]
    position: int
    createdAt: dt.datetime
    updatedAt: dt.datetime


class AreaResource(Resource):
    shape = Area
    model = models.Area
    columns = ("area_type__name",)

    def present(self, row: dict, ctx: PresentContext) -> Area:
        area_type_id = row["area_type_id"]
        return self.body(
            row,
            ctx,
            areaType={"id": area_type_id, "name": row["area_type__name"]} if area_type_id is not None else None,
        )


CLUB = ClubResource()
AREA_TYPE = Resource(AreaType, models.AreaType)
AREA = AreaResource()
