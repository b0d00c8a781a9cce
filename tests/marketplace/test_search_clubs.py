"""GET /v1/public/search/clubs: matching, place resolution, nearest-first order, the day filter, the index."""

import datetime as dt
import math
import random

import pytest
from django.db import connection

from apps.clubs.models import Club, ClubReview
from apps.clubs.services import is_club_open_on
from apps.marketplace import gazetteer, geo, listing
from apps.marketplace.search import DEFAULT_RADIUS_KM

from .conftest import SEARCH, SOL

# Points east of Sol along its parallel, at about 1, 5 and 20 km.
KM_PER_DEGREE_LNG_AT_SOL = geo.distance_km(SOL[0], 0, SOL[0], 1)


def east(km: float) -> tuple[float, float]:
    return SOL[0], SOL[1] + km / KM_PER_DEGREE_LNG_AT_SOL


def slugs(response) -> list[str]:
    assert response.status_code == 200, response.content
    return [row["slug"] for row in response.json()["data"]]


def test_nearest_first_with_great_circle_distance(public, make_listed_club):
    far = make_listed_club("Aaa Far", *east(20))
    near = make_listed_club("Zzz Near", *east(1))
    middle = make_listed_club("Mmm Middle", *east(5))
    make_listed_club("Barcelona Padel", 41.3874, 2.1686)  # ~500 km away: outside the default radius

    response = public.get(SEARCH, {"lat": SOL[0], "lng": SOL[1]})

    assert slugs(response) == [near.slug, middle.slug, far.slug]
    distances = [row["distanceKm"] for row in response.json()["data"]]
    assert distances == pytest.approx([1.0, 5.0, 20.0], abs=0.01)
    assert response.json()["total"] == 3


def test_by_name_without_a_point(public, make_listed_club):
    make_listed_club("beta", *east(1))
    make_listed_club("Alpha", *east(20))
    make_listed_club("Gamma", 41.3874, 2.1686)

    response = public.get(SEARCH)

    assert [row["name"] for row in response.json()["data"]] == ["Alpha", "beta", "Gamma"]
    assert {row["distanceKm"] for row in response.json()["data"]} == {None}


def test_item_shape(public, make_listed_club, organization):
    club = make_listed_club(
        "Sol Padel", address="Calle Mayor 1", postal_code="28013", logo="https://x.example/l.png", images=["a.jpg"]
    )
    club.areas.update(images=["court.jpg"])
    ClubReview.objects.create(organization=organization, club=club, rating=4)
    ClubReview.objects.create(organization=organization, club=club, rating=5)
    ClubReview.objects.create(organization=organization, club=club, rating=1, is_public=False)

    [row] = public.get(SEARCH, {"location": "Madrid"}).json()["data"]

    assert row == {
        "slug": club.slug,
        "name": "Sol Padel",
        "address": "Calle Mayor 1",
        "city": "Madrid",
        "state": None,
        "country": "ES",
        "postalCode": "28013",
        "logo": "https://x.example/l.png",
        "images": ["a.jpg", "court.jpg"],
        "sports": ["padel"],
        "rating": {"average": 4.5, "total": 2},
        "distanceKm": pytest.approx(row["distanceKm"]),
        "timezone": "Europe/Madrid",
        "url": f"http://localhost:8000/marketplace/clubs/{club.slug}",
    }
    assert row["distanceKm"] < 2


def test_place_with_country_disambiguates(public, make_listed_club):
    spain = make_listed_club("Valencia Padel", 39.4699, -0.3763)
    venezuela = make_listed_club("Valencia VE Padel", 10.1620, -68.0077, timezone="America/Caracas")

    assert slugs(public.get(SEARCH, {"location": "Valencia, ES"})) == [spain.slug]
    assert slugs(public.get(SEARCH, {"location": "valència, Spain"})) == [spain.slug]
    assert slugs(public.get(SEARCH, {"location": "Valencia, VE"})) == [venezuela.slug]
    assert slugs(public.get(SEARCH, {"location": "Valencia, Venezuela"})) == [venezuela.slug]


def test_an_ambiguous_bare_name_is_the_most_populous_place(public, make_listed_club):
    make_listed_club("Valencia Padel", 39.4699, -0.3763)
    venezuela = make_listed_club("Valencia VE Padel", 10.1620, -68.0077, timezone="America/Caracas")
    place = gazetteer.resolve("Valencia")
    assert place.country == "VE"  # 1.6 million people against 0.8 million in Spain

    assert slugs(public.get(SEARCH, {"location": "Valencia"})) == [venezuela.slug]


def test_alternate_names_resolve(db):
    assert gazetteer.resolve("NYC").name == "New York City"
    assert gazetteer.resolve("Londres, FR") is None  # London is not in France
    assert gazetteer.resolve("London, CA").country == "CA"
    # After the comma, what is not a country (a region, a typo) is ignored: the name alone decides.
    assert gazetteer.resolve("Springfield, Narnia") == gazetteer.resolve("Springfield")


@pytest.mark.parametrize("location", ["Atlantis of the Seas", "Atlantis, ES", "Valencia, JP"])
def test_unknown_place_is_400_naming_location(db, public, location):
    response = public.get(SEARCH, {"location": location})

    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "Invalid request"
    assert [issue["path"] for issue in body["details"]["issues"]] == ["location"]
    assert set(body) == {"error", "details"}


def test_lat_lng_take_precedence_over_location(public, make_listed_club):
    barcelona = make_listed_club("Barcelona Padel", 41.3874, 2.1686)
    make_listed_club("Sol Padel", *east(1))

    response = public.get(SEARCH, {"location": "Madrid", "lat": 41.3874, "lng": 2.1686})

    assert slugs(response) == [barcelona.slug]


@pytest.mark.parametrize(
    ("params", "path"),
    [
        ({"lat": 40.4}, "lng"),
        ({"lng": -3.7}, "lat"),
        ({"lat": 91, "lng": 0}, "lat"),
        ({"lat": "north", "lng": 0}, "lat"),
        ({"date": "2030-02-30"}, "date"),
        ({"limit": 0}, "limit"),
        ({"offset": -1}, "offset"),
        ({"radiusKm": 0}, "radiusKm"),
    ],
)
def test_bad_parameters_are_400_with_issues(public, params, path):
    response = public.get(SEARCH, params)

    assert response.status_code == 400
    assert response.json()["error"] == "Invalid request"
    assert path in [issue["path"] for issue in response.json()["details"]["issues"]]


def test_text_matches_name_or_sport_and_sport_filters(public, make_listed_club):
    padel = make_listed_club("Club Norte", *east(1), sports=["padel"])
    tennis = make_listed_club("Raqueta Sur", *east(2), sports=["tennis"])
    make_listed_club("Gym Este", *east(3), sports=["yoga"])

    assert slugs(public.get(SEARCH, {"q": "tennis", "location": "Madrid"})) == [tennis.slug]
    assert slugs(public.get(SEARCH, {"q": "norte", "location": "Madrid"})) == [padel.slug]
    assert slugs(public.get(SEARCH, {"q": "PADEL"})) == [padel.slug]
    assert slugs(public.get(SEARCH, {"sport": "tennis"})) == [tennis.slug]
    assert slugs(public.get(SEARCH, {"sport": "tennis", "q": "norte"})) == []


def test_only_listed_active_clubs_of_active_organizations(public, make_listed_club, make_org):
    shown = make_listed_club("Shown", *east(1))
    make_listed_club("Unlisted", *east(1), marketplace_listed=False)
    make_listed_club("Inactive", *east(1), is_active=False)
    make_listed_club("Org Gone", *east(1), organization_=make_org(status="inactive"))
    make_listed_club("Elsewhere Org", *east(2), organization_=make_org())

    assert slugs(public.get(SEARCH, {"location": "Madrid"}))[0] == shown.slug
    assert len(slugs(public.get(SEARCH, {"location": "Madrid"}))) == 2


def test_date_keeps_clubs_open_that_day_on_their_clock(public, make_listed_club):
    wednesday = dt.date(2031, 1, 15)
    assert wednesday.weekday() == 2
    hours = {d: [["09:00", "21:00"]] for d in ("monday", "tuesday", "wednesday", "thursday", "friday")}
    open_club = make_listed_club("Open", *east(1), opening_hours=hours)
    make_listed_club("Closed Date", *east(1), opening_hours=hours, closed_dates=["2031-01-15"])
    make_listed_club("Closed For Good", *east(1), opening_hours=hours, closing_date=wednesday)
    make_listed_club("Weekends", *east(1), opening_hours={"saturday": [["09:00", "14:00"]]})
    make_listed_club("Empty Wednesday", *east(1), opening_hours={**hours, "wednesday": []})
    closing_later = make_listed_club("Closing Later", *east(2), opening_hours=hours, closing_date=dt.date(2031, 1, 16))

    response = public.get(SEARCH, {"location": "Madrid", "date": "2031-01-15"})

    assert slugs(response) == [open_club.slug, closing_later.slug]
    # The SQL rule is the clubs app's rule.
    shown = set(slugs(response))
    for club in Club.objects.all():
        assert (club.slug in shown) == is_club_open_on(club, wednesday)
    assert len(slugs(public.get(SEARCH, {"location": "Madrid", "date": "2031-01-18"}))) == 1  # a Saturday


def test_pagination(public, make_listed_club):
    clubs = [make_listed_club(f"Club {i}", *east(i + 1)) for i in range(5)]

    body = public.get(SEARCH, {"location": "Madrid", "limit": 2, "offset": 2}).json()

    assert [row["slug"] for row in body["data"]] == [clubs[2].slug, clubs[3].slug]
    assert (body["total"], body["limit"], body["offset"]) == (5, 2, 2)
    assert public.get(SEARCH, {"limit": 1000}).json()["limit"] == 200
    assert public.get(SEARCH, {"offset": 10}).json() == {"data": [], "total": 5, "limit": 50, "offset": 10}


def test_query_count_does_not_grow_with_the_page(public, make_listed_club, django_assert_max_num_queries):
    make_listed_club("First", *east(1))
    public.get(SEARCH, {"location": "Madrid"})  # the gazetteer is built once per process
    with django_assert_max_num_queries(3) as one:
        assert len(public.get(SEARCH, {"location": "Madrid"}).json()["data"]) == 1
    for i in range(30):
        make_listed_club(f"Club {i}", *east(i % 20 + 1))
    with django_assert_max_num_queries(len(one.captured_queries)):
        assert len(public.get(SEARCH, {"location": "Madrid"}).json()["data"]) == 31


def test_the_bounding_box_covers_the_circle():
    """Every point on a circle of the radius lies inside the box (also near the antimeridian and the poles)."""
    rng = random.Random(7)
    for lat, lng, radius in [(40.4, -3.7, 50), (-16.5, 179.9, 300), (89.5, 10, 100), (64.1, -21.9, 500)]:
        box = geo.bounding_box(lat, lng, radius)
        for _ in range(200):
            bearing = rng.uniform(0, 360)
            plat, plng = _destination(lat, lng, bearing, radius * 0.999)
            assert _in_box(box, plat, plng), (lat, lng, radius, plat, plng)


def _destination(lat, lng, bearing, km):
    d = km / geo.EARTH_RADIUS_KM
    phi1, lmb1, theta = math.radians(lat), math.radians(lng), math.radians(bearing)
    phi2 = math.asin(math.sin(phi1) * math.cos(d) + math.cos(phi1) * math.sin(d) * math.cos(theta))
    lmb2 = lmb1 + math.atan2(
        math.sin(theta) * math.sin(d) * math.cos(phi1), math.cos(d) - math.sin(phi1) * math.sin(phi2)
    )
    return math.degrees(phi2), (math.degrees(lmb2) + 540) % 360 - 180


def _in_box(q, lat, lng) -> bool:
    """Evaluate the Q of `bounding_box` on a point, in Python."""
    if not q.children:
        return True
    results = []
    for child in q.children:
        if hasattr(child, "children"):
            results.append(_in_box(child, lat, lng))
        else:
            key, value = child
            field, op = key.rsplit("__", 1)
            point = lat if field == "latitude" else lng
            results.append(point >= value if op == "gte" else point <= value)
    outcome = all(results) if q.connector == "AND" else any(results)
    return not outcome if q.negated else outcome


@pytest.mark.django_db
def test_explain_uses_the_coordinates_index(make_org):
    """With many listed clubs across the world, the planner reads the partial index on (latitude, longitude)
    for a point search instead of computing a distance for every club."""
    organization = make_org()
    rng = random.Random(11)
    Club.objects.bulk_create(
        Club(
            organization=organization,
            name=f"Club {i}",
            slug=f"club-{i}",
            latitude=rng.uniform(-60, 70),
            longitude=rng.uniform(-180, 180),
            marketplace_listed=True,
            opening_hours={"monday": [["08:00", "22:00"]]},
        )
        for i in range(5000)
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE clubs_club")
        cursor.execute("ANALYZE organizations_organization")
    lat, lng = SOL
    queryset = (
        listing.listed_clubs()
        .filter(listing.near(lat, lng, DEFAULT_RADIUS_KM))
        .annotate(distance=geo.distance_expression(lat, lng))
        .filter(distance__lte=DEFAULT_RADIUS_KM)
        .order_by("distance")
    )

    plan = queryset.explain()

    assert "club_marketplace_geo" in plan, plan
    assert "Seq Scan on clubs_club" not in plan, plan
