import datetime as dt
import itertools

from apps.clubs.models import Amenity, AreaType, Club, ClubReview
from apps.occupancy.models import AreaBlock
from tests.factories import make_area, make_club
from tests.harness import EndpointCase

_seq = itertools.count()
FUTURE_DAY = "2031-03-04"


def make_block(organization, area=None):
    area = area or make_area(organization)
    start = dt.datetime(2031, 3, 4, 10, tzinfo=dt.UTC)
    return AreaBlock.objects.create(
        organization=organization, club=area.club, area=area, start_time=start, end_time=start + dt.timedelta(hours=1)
    )


def club_slug(organization):
    return {"slug": make_club(organization).slug}


def club_rows(organization, n):
    Amenity.objects.get_or_create(code="parking", defaults={"names": {"en": "Parking"}})
    for _ in range(n):
        club = make_club(organization, amenities=["parking", "showers"], images=["https://img/c.jpg"])
        make_area(organization, club, images=["https://img/a.jpg"])
        make_area(organization, club, images=["https://img/b.jpg"])
        ClubReview.objects.create(organization=organization, club=club, rating=4)


def area_id(organization):
    return {"id": make_area(organization).id}


def area_rows(organization, n):
    area_type = AreaType.objects.create(organization=organization, name="T", slug=f"t-{next(_seq)}")
    club = make_club(organization)
    for _ in range(n):
        make_area(organization, club, area_type=area_type)


def area_type_id(organization):
    return {"id": AreaType.objects.create(organization=organization, name="Padel", slug=f"padel-{next(_seq)}").id}


def area_type_rows(organization, n):
    AreaType.objects.bulk_create(
        [AreaType(organization=organization, name=f"T{i}", slug=f"t-{next(_seq)}") for i in range(n)]
    )


def block_id(organization):
    return {"id": make_block(organization).id}


def block_rows(organization, n):
    area = make_area(organization)
    for _ in range(n):
        make_block(organization, area)


def availability_ids(organization):
    club = Club.objects.filter(organization=organization, slug="availability-club").first()
    if club is None:
        club = make_club(organization, slug="availability-club")
    return {"clubId": club.id}


def availability_rows(organization, n):
    club = Club.objects.get(organization=organization, slug="availability-club")
    for _ in range(n):
        area = make_area(organization, club)
        make_block(organization, area)


CASES = [
    EndpointCase("GET", "/v1/platform/clubs", "clubs:read", list_rows=club_rows),
    EndpointCase("GET", "/v1/platform/clubs/{slug}", "clubs:read", setup=club_slug),
    EndpointCase("GET", "/v1/platform/areas", "areas:read", list_rows=area_rows),
    EndpointCase("GET", "/v1/platform/areas/{id}", "areas:read", setup=area_id),
    EndpointCase("POST", "/v1/platform/areas", "areas:write", body={"name": "Court"}),
    EndpointCase("PATCH", "/v1/platform/areas/{id}", "areas:write", setup=area_id, body={}),
    EndpointCase("GET", "/v1/platform/area-types", "areas:read", list_rows=area_type_rows),
    EndpointCase("GET", "/v1/platform/area-types/{id}", "areas:read", setup=area_type_id),
    EndpointCase("POST", "/v1/platform/area-types", "areas:write", body={"name": "Padel court"}),
    EndpointCase("PATCH", "/v1/platform/area-types/{id}", "areas:write", setup=area_type_id, body={}),
    EndpointCase("GET", "/v1/platform/area-blocks", "areas:read", list_rows=block_rows),
    EndpointCase("GET", "/v1/platform/area-blocks/{id}", "areas:read", setup=block_id),
    EndpointCase("POST", "/v1/platform/area-blocks", "areas:write", body={}),
    EndpointCase("DELETE", "/v1/platform/area-blocks/{id}", "areas:write", setup=block_id),
    EndpointCase(
        "GET",
        "/v1/platform/availability?clubId={clubId}&startDate=" + FUTURE_DAY,
        "areas:read",
        setup=availability_ids,
        list_rows=availability_rows,
        foreign_404=False,  # clubId is a query value: another organization's club is a 400, not a 404
    ),
]
