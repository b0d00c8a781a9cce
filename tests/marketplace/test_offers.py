"""POST /v1/public/network/search/offers: free court times, their prices, deep links, order and validation."""

import datetime as dt
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from apps.classes.models import ClassOccurrence
from apps.clubs.models import Area
from apps.marketplace import offers
from apps.occupancy.models import AreaBlock
from apps.pricing.models import PricingRule

from .conftest import EVERY_DAY, MADRID, OFFERS, SOL, book, future_weekday, wall

ALL_DAY = {d: [["00:00", "24:00"]] for d in EVERY_DAY}


def search(public, **body):
    body.setdefault("location", "Madrid")
    body["date"] = body["date"].isoformat() if isinstance(body.get("date"), dt.date) else body.get("date")
    response = public.post(OFFERS, body, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def times(body, area_id=None) -> list[str]:
    return [o["time"] for o in body["data"] if area_id is None or o["areaId"] == area_id]


@pytest.fixture
def day():
    return future_weekday(2)


@pytest.fixture
def club(make_listed_club):
    return make_listed_club("Sol Padel", courts=1)


@pytest.fixture
def court(club):
    return club.areas.get()


def test_free_times_every_30_minutes_inside_opening_hours(public, club, court, day):
    body = search(public, date=day, earliestTime="20:00")

    assert times(body) == ["20:00", "20:30", "21:00"]  # the club closes at 22:00
    assert search(public, date=day, earliestTime="07:00", latestTime="09:00")["total"] == 3  # 08:00 to 09:00
    assert times(search(public, date=day, earliestTime="10:10", latestTime="11:00")) == ["10:30", "11:00"]
    assert search(public, date=day, earliestTime="21:30", durationMinutes=90)["total"] == 0


def test_offer_shape_and_deep_link(public, club, court, day):
    [offer] = search(public, date=day, earliestTime="21:00")["data"]

    assert offer == {
        "clubSlug": club.slug,
        "clubName": "Sol Padel",
        "areaId": court.id,
        "areaName": "Court 1",
        "sport": "padel",
        "date": day.isoformat(),
        "time": "21:00",
        "durationMinutes": 60,
        "price": 24.2,
        "currency": "EUR",
        "timezone": "Europe/Madrid",
        "url": f"http://localhost:8000/marketplace/clubs/{club.slug}?date={day.isoformat()}&time=21:00&areaId={court.id}",
    }
    [longer] = search(public, date=day, earliestTime="20:30", durationMinutes=90)["data"]
    url = urlsplit(longer["url"])
    assert url.path == f"/marketplace/clubs/{club.slug}"
    assert parse_qs(url.query) == {
        "date": [day.isoformat()],
        "time": ["20:30"],
        "areaId": [str(court.id)],
        "duration": ["90"],
    }
    assert longer["price"] == 36.3


def test_every_kind_of_occupied_time_is_excluded(public, organization, club, court, day):
    book(court, wall(day, "09:00"), 60)
    book(court, wall(day, "11:00"), 60, status="cancelled")  # frees its time
    AreaBlock.objects.create(
        organization=organization, club=club, area=court, start_time=wall(day, "12:30"), end_time=wall(day, "13:00")
    )
    ClassOccurrence.objects.create(
        organization=organization,
        club=club,
        area=court,
        name="Clinic",
        start_time=wall(day, "15:00"),
        end_time=wall(day, "16:00"),
    )
    ClassOccurrence.objects.create(
        organization=organization,
        club=club,
        area=court,
        name="Cancelled clinic",
        status="cancelled",
        start_time=wall(day, "17:00"),
        end_time=wall(day, "18:00"),
    )

    free = times(search(public, date=day, earliestTime="08:00", latestTime="18:00"))

    assert free == [
        "08:00",  # 08:00-09:00 ends as the booking starts
        "10:00",
        "10:30",
        "11:00",
        "11:30",  # until the block at 12:30
        "13:00",
        "13:30",
        "14:00",  # until the class at 15:00
        "16:00",
        "16:30",
        "17:00",
        "17:30",
        "18:00",
    ]


def test_closed_days_and_past_the_closing_date(public, make_listed_club, day):
    make_listed_club("Closed That Day", courts=1, closed_dates=[day.isoformat()])
    make_listed_club("Closed For Good", courts=1, closing_date=day)
    make_listed_club("No Hours That Day", courts=1, opening_hours={"sunday": [["08:00", "22:00"]]})
    open_later = make_listed_club("Closing Later", courts=1, closing_date=day + dt.timedelta(days=1))

    body = search(public, date=day, earliestTime="21:00")

    assert {o["clubSlug"] for o in body["data"]} == {open_later.slug}


def test_nothing_in_the_past_on_the_clubs_clock(public, make_listed_club):
    tz = ZoneInfo("Pacific/Kiritimati")  # UTC+14: "today" there is tomorrow for most of the world
    club = make_listed_club("Line Islands", courts=1, timezone="Pacific/Kiritimati", opening_hours=ALL_DAY)
    before = timezone.now()
    today = before.astimezone(tz).date()

    body = search(public, date=today, lat=club.latitude, lng=club.longitude, limit=200)
    yesterday = search(public, date=today - dt.timedelta(days=1), lat=club.latitude, lng=club.longitude)

    assert yesterday["total"] == 0
    starts = [dt.datetime.fromisoformat(f"{o['date']}T{o['time']}").replace(tzinfo=tz) for o in body["data"]]
    assert all(start >= before.replace(second=0, microsecond=0) for start in starts)
    minutes_left = (dt.datetime.combine(today + dt.timedelta(days=1), dt.time(), tzinfo=tz) - before).total_seconds()
    assert body["total"] >= int(minutes_left // 1800) - 2  # every later start of the day is offered


def test_free_slots_skip_past_starts_with_a_given_clock(club, court, day):
    now = wall(day, "10:10")

    slots = offers.free_slots(club, [court], day, {}, now=now, latest=dt.time(11, 0))

    assert [s.time for s in slots] == ["10:30", "11:00"]


def test_dst_spring_forward(public, make_listed_club):
    """2031-03-30, Madrid: 02:00 CET jumps to 03:00 CEST. 02:00 and 02:30 do not exist, and a 60-minute time
    from 01:30 CET lasts a real hour, to 03:30 CEST."""
    day = dt.date(2031, 3, 30)
    club = make_listed_club("Spring", courts=1, opening_hours=ALL_DAY)
    court = club.areas.get()
    book(court, dt.datetime(2031, 3, 30, 1, 0, tzinfo=dt.UTC), 30)  # 03:00-03:30 CEST

    sixty = search(public, date=day, earliestTime="00:00", latestTime="05:00", limit=200)
    thirty = search(public, date=day, earliestTime="00:00", latestTime="05:00", durationMinutes=30, limit=200)

    # 01:30 CET + 60 min reaches into the booking (00:30Z-01:30Z against 01:00Z-01:30Z); 01:00 ends as it starts.
    assert times(sixty) == ["00:00", "00:30", "01:00", "03:30", "04:00", "04:30", "05:00"]
    assert times(thirty) == ["00:00", "00:30", "01:00", "01:30", "03:30", "04:00", "04:30", "05:00"]
    # 46 start times exist that day; 23:30 + 60 min is past closing; 01:30 and 03:00 are taken.
    assert search(public, date=day, limit=200)["total"] == 43


def test_dst_fall_back(public, make_listed_club):
    """2031-10-26, Madrid: 03:00 CEST goes back to 02:00 CET. 02:00 and 02:30 happen twice and are offered at both
    instants, in the order they happen (CEST, then CET), as the gym's page lists them."""
    day = dt.date(2031, 10, 26)
    club = make_listed_club("Autumn", courts=1, opening_hours=ALL_DAY)
    court = club.areas.get()
    book(court, dt.datetime(2031, 10, 26, 1, 0, tzinfo=dt.UTC), 30)  # the second 02:00-02:30 (CET)

    thirty = search(public, date=day, earliestTime="01:00", latestTime="03:00", durationMinutes=30, limit=200)
    sixty = search(public, date=day, earliestTime="01:00", latestTime="03:00", limit=200)

    # 02:00 CEST, 02:30 CEST, (02:00 CET is booked), 02:30 CET
    assert times(thirty) == ["01:00", "01:30", "02:00", "02:30", "02:30", "03:00"]
    # 02:00 CEST runs a real hour to 02:00 CET (01:00Z), touching the booking; 02:30 CEST reaches into it, 02:30
    # CET starts when it ends.
    assert times(sixty) == ["01:00", "01:30", "02:00", "02:30", "03:00"]
    # 50 start times exist on the 25-hour day; one is booked.
    assert search(public, date=day, durationMinutes=30, limit=200)["total"] == 49


def test_prices_equal_the_platform_quote(public, api, organization, make_listed_club, day):
    club = make_listed_club("Priced", courts=2)
    court, second = club.areas.order_by("position")
    second.sports = ["tennis", "padel"]
    second.hourly_rate = "18.50"
    second.save()
    PricingRule.objects.create(
        organization=organization, name="Evening", adjustment_type="percent", value=50, start_minute=19 * 60,
        end_minute=22 * 60, priority=1,
    )  # fmt: skip
    PricingRule.objects.create(
        organization=organization, name="Tennis", adjustment_type="set_hourly_rate", value="27.35", sports=["tennis"]
    )
    PricingRule.objects.create(
        organization=organization,
        name="Court 2 discount",
        adjustment_type="amount",
        value="-1.13",
        area_ids=[second.id],
        priority=2,
    )
    PricingRule.objects.create(
        organization=organization, name="Members", adjustment_type="set_hourly_rate", value=1, audience="members"
    )

    checked = 0
    for sports, duration in ((["padel"], 90), (["tennis"], 60), ([], 120), (["tennis", "padel"], 30)):
        body = search(public, date=day, earliestTime="18:00", sports=sports, durationMinutes=duration, limit=200)
        assert body["data"]
        for offer in body["data"]:
            start = dt.datetime.combine(day, dt.time.fromisoformat(offer["time"]), tzinfo=MADRID)
            quote = api.get(
                "/v1/platform/pricing-rules/quote",
                {
                    "areaId": offer["areaId"],
                    "startTime": start.isoformat(),
                    "endTime": (start + dt.timedelta(minutes=duration)).isoformat(),
                    **({"sport": offer["sport"]} if offer["sport"] else {}),
                },
            )
            assert quote.status_code == 200, quote.content
            assert offer["price"] == quote.json()["price"], (offer, quote.json())
            checked += 1
    assert checked > 20
    tennis = search(public, date=day, earliestTime="10:00", latestTime="10:00", sports=["tennis"])["data"]
    assert [(o["areaId"], o["sport"], o["price"]) for o in tennis] == [(second.id, "tennis", 31.73)]


def test_sports_radius_and_order(public, organization, make_listed_club, day):
    near = make_listed_club("Near", *SOL, courts=2)
    far = make_listed_club("Far", SOL[0] + 0.1, SOL[1], courts=1)  # ~11 km north
    make_listed_club("Too Far", SOL[0] + 0.5, SOL[1], courts=1)  # ~56 km north
    tennis_only = make_listed_club("Tennis", *SOL, courts=1, sports=["tennis"])
    Area.objects.create(organization=organization, club=near, name="Off", sports=["padel"], is_active=False)

    body = search(public, date=day, earliestTime="20:30", sports=["padel"])

    near_courts = list(near.areas.filter(is_active=True).order_by("position").values_list("id", flat=True))
    assert [(o["clubSlug"], o["time"], o["areaId"]) for o in body["data"]] == [
        (near.slug, "20:30", near_courts[0]),
        (near.slug, "20:30", near_courts[1]),
        (near.slug, "21:00", near_courts[0]),
        (near.slug, "21:00", near_courts[1]),
        (far.slug, "20:30", far.areas.get().id),
        (far.slug, "21:00", far.areas.get().id),
    ]
    assert {o["clubSlug"] for o in search(public, date=day, earliestTime="20:30")["data"]} == {
        near.slug,
        far.slug,
        tennis_only.slug,
    }
    wide = search(public, date=day, earliestTime="21:00", sports=["padel"], radiusKm=60)
    assert wide["total"] == 4
    narrow = search(public, date=day, earliestTime="21:00", sports=["padel"], radiusKm=5)
    assert {o["clubSlug"] for o in narrow["data"]} == {near.slug}


def test_pagination(public, club, day):
    everything = search(public, date=day, earliestTime="18:00")
    page = search(public, date=day, earliestTime="18:00", limit=2, offset=3)

    assert everything["total"] == 7
    assert page["data"] == everything["data"][3:5]
    assert (page["total"], page["limit"], page["offset"]) == (7, 2, 3)
    assert search(public, date=day, earliestTime="18:00", offset=50)["data"] == []


def test_unlisted_inactive_and_inactive_organization_clubs_offer_nothing(public, make_listed_club, make_org, day):
    make_listed_club("Unlisted", courts=1, marketplace_listed=False)
    make_listed_club("Inactive", courts=1, is_active=False)
    make_listed_club("Org Gone", courts=1, organization_=make_org(status="inactive"))

    assert search(public, date=day)["total"] == 0


def test_query_count_is_bounded(public, make_listed_club, day, django_assert_max_num_queries, settings):
    settings.MARKETPLACE_OFFERS_CACHE_SECONDS = 0  # count the search's own queries, not the cache's hits
    make_listed_club("One", courts=1)
    search(public, date=day)  # the gazetteer is built once per process
    with django_assert_max_num_queries(3) as one:  # clubs, courts with what occupies them, pricing rules
        search(public, date=day)
    for i in range(10):
        make_listed_club(f"Club {i}", SOL[0] + i / 100, SOL[1], courts=3, organization_=None)
    with django_assert_max_num_queries(len(one.captured_queries)):
        assert search(public, date=day)["total"] > 100


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"location": "Madrid"}, "date"),
        ({"date": "2031-01-15"}, "location"),
        ({"location": "Madrid", "date": "15/01/2031"}, "date"),
        ({"location": "Madrid", "date": "2031-01-15", "earliestTime": "9:00"}, "earliestTime"),
        ({"location": "Madrid", "date": "2031-01-15", "earliestTime": "24:00"}, "earliestTime"),
        ({"location": "Madrid", "date": "2031-01-15", "earliestTime": "12:00", "latestTime": "11:00"}, "latestTime"),
        ({"location": "Madrid", "date": "2031-01-15", "durationMinutes": 45}, "durationMinutes"),
        ({"location": "Madrid", "date": "2031-01-15", "sports": "padel"}, "sports"),
        ({"location": "Madrid", "date": "2031-01-15", "sports": [1]}, "sports.0"),
        ({"location": "Madrid", "date": "2031-01-15", "radiusKm": 500}, "radiusKm"),
        ({"location": "Madrid", "date": "2031-01-15", "limit": "5"}, "limit"),
        ({"lat": 40.4, "date": "2031-01-15"}, "lng"),
        ({"location": "Atlantis of the Seas", "date": "2031-01-15"}, "location"),
        ({"location": 7, "date": "2031-01-15"}, "location"),
    ],
)
def test_invalid_bodies_are_400_with_issues(db, public, body, path):
    response = public.post(OFFERS, body, format="json")

    assert response.status_code == 400, response.content
    payload = response.json()
    assert payload["error"] == "Invalid request"
    assert path in [issue["path"] for issue in payload["details"]["issues"]], payload
    assert all(set(issue) == {"path", "message"} for issue in payload["details"]["issues"])


@pytest.mark.parametrize(
    ("content", "content_type"),
    [
        ("not json", "application/json"),
        ("date=2031-01-15", "application/x-www-form-urlencoded"),
        ("[]", "application/json"),
        ('{"location": ' + "[" * 101 + "]" * 101 + "}", "application/json"),  # was the platform's body (issue 20)
    ],
)
def test_a_body_that_is_not_a_json_object_is_400(db, public, content, content_type):
    response = public.generic("POST", OFFERS, content, content_type=content_type)

    assert response.status_code == 400
    assert response.json() == {
        "error": "Invalid request",
        "details": {"issues": [{"path": "body", "message": response.json()["details"]["issues"][0]["message"]}]},
    }


def test_pages_across_clubs_are_slices_of_the_whole(public, make_listed_club, day):
    for i in range(3):
        club = make_listed_club(f"Club {i}", SOL[0] + i / 100, SOL[1], courts=2)
        book(club.areas.first(), wall(day, "20:30"))
    everything = search(public, date=day, earliestTime="19:30", limit=200)
    assert everything["total"] == len(everything["data"]) == 3 * (2 * 4 - 3)  # 19:30-21:00, 3 taken

    for offset in range(0, everything["total"] + 3, 5):
        page = search(public, date=day, earliestTime="19:30", limit=5, offset=offset)
        assert page["data"] == everything["data"][offset : offset + 5]
        assert page["total"] == everything["total"]
