import datetime as dt

import pytest

from apps.bookings.models import Booking
from apps.classes.models import ClassOccurrence
from apps.clubs.services import is_club_open_on, opening_intervals
from apps.occupancy.models import AreaBlock
from tests.factories import make_area, make_club

pytestmark = pytest.mark.django_db

DAY = "2031-03-04"  # a Tuesday; Madrid is on UTC+1, so 08:00-22:00 local is 07:00Z-21:00Z


def utc(day, hour, minute=0):
    return dt.datetime.combine(dt.date.fromisoformat(day), dt.time(hour, minute), tzinfo=dt.UTC)


def z(day, hour, minute=0):
    return utc(day, hour, minute).strftime("%Y-%m-%dT%H:%M:%SZ")


def get(api, query):
    response = api.get(f"/v1/platform/availability?{query}")
    assert response.status_code == 200, response.content
    return response.json()


def test_free_intervals_subtract_bookings_blocks_and_classes(api, organization, club, area):
    org = organization
    Booking.objects.create(
        organization=org, type="area", club=club, area=area, start_time=utc(DAY, 10), end_time=utc(DAY, 11)
    )
    Booking.objects.create(
        organization=org,
        type="area",
        status="cancelled",
        club=club,
        area=area,
        start_time=utc(DAY, 17),
        end_time=utc(DAY, 18),
    )
    AreaBlock.objects.create(organization=org, club=club, area=area, start_time=utc(DAY, 12), end_time=utc(DAY, 13))
    ClassOccurrence.objects.create(
        organization=org, club=club, area=area, name="Clinic", start_time=utc(DAY, 15), end_time=utc(DAY, 16)
    )
    ClassOccurrence.objects.create(
        organization=org,
        club=club,
        area=area,
        name="Cancelled",
        status="cancelled",
        start_time=utc(DAY, 18),
        end_time=utc(DAY, 19),
    )
    # a booking starting before opening time and a block running past closing time are clipped
    Booking.objects.create(
        organization=org, type="area", club=club, area=area, start_time=utc(DAY, 6), end_time=utc(DAY, 7, 30)
    )
    AreaBlock.objects.create(organization=org, club=club, area=area, start_time=utc(DAY, 20, 30), end_time=utc(DAY, 23))

    body = get(api, f"clubId={club.id}&startDate={DAY}")
    row = {"clubId": club.id, "areaId": area.id, "areaName": "Court 1"}
    assert body == {
        "data": [
            {**row, "startTime": z(DAY, 7, 30), "endTime": z(DAY, 10)},
            {**row, "startTime": z(DAY, 11), "endTime": z(DAY, 12)},
            {**row, "startTime": z(DAY, 13), "endTime": z(DAY, 15)},
            {**row, "startTime": z(DAY, 16), "endTime": z(DAY, 20, 30)},
        ],
        "total": 4,
        "limit": 50,
        "offset": 0,
    }
    long_only = get(api, f"clubId={club.id}&startDate={DAY}&minDurationMinutes=180")
    assert [(r["startTime"], r["endTime"]) for r in long_only["data"]] == [(z(DAY, 16), z(DAY, 20, 30))]
    page = get(api, f"clubId={club.id}&startDate={DAY}&limit=2&offset=1")
    assert [r["startTime"] for r in page["data"]] == [z(DAY, 11), z(DAY, 13)] and page["total"] == 4


def test_areas_filters_and_order(api, organization, club, area):
    tennis = make_area(organization, club, name="Tennis 1", sports=["tennis"], position=-1)
    make_area(organization, club, name="Closed court", is_active=False)
    make_area(organization, make_club(organization), name="Elsewhere")
    body = get(api, f"clubId={club.id}&startDate={DAY}")
    assert [(r["areaName"], r["startTime"], r["endTime"]) for r in body["data"]] == [
        ("Tennis 1", z(DAY, 7), z(DAY, 21)),
        ("Court 1", z(DAY, 7), z(DAY, 21)),
    ]
    assert [r["areaId"] for r in get(api, f"clubId={club.id}&startDate={DAY}&sport=padel")["data"]] == [area.id]
    assert [r["areaId"] for r in get(api, f"clubId={club.id}&startDate={DAY}&areaId={tennis.id}")["data"]] == [
        tennis.id
    ]


def test_several_days_across_dst_and_closures(api, organization, club, area):
    # Madrid moves to UTC+2 on Sunday 2031-03-30; the club is closed on the 29th and on Mondays
    club.closed_dates = ["2031-03-29"]
    club.opening_hours = {**club.opening_hours, "monday": []}
    club.save()
    body = get(api, f"clubId={club.id}&startDate=2031-03-28&endDate=2031-04-01")
    assert [(r["startTime"], r["endTime"]) for r in body["data"]] == [
        (z("2031-03-28", 7), z("2031-03-28", 21)),
        (z("2031-03-30", 6), z("2031-03-30", 20)),
        (z("2031-04-01", 6), z("2031-04-01", 20)),
    ]
    club.closing_date = dt.date(2031, 3, 30)
    club.save()
    body = get(api, f"clubId={club.id}&startDate=2031-03-28&endDate=2031-04-01")
    assert [r["startTime"] for r in body["data"]] == [z("2031-03-28", 7)]


def test_split_opening_hours_and_past_is_not_free(api, organization, club, area):
    club.opening_hours = {"tuesday": [["14:00", "20:00"], ["08:00", "12:00"], ["20:00", "24:00"]]}
    club.save()
    body = get(api, f"clubId={club.id}&startDate={DAY}")
    assert [(r["startTime"], r["endTime"]) for r in body["data"]] == [
        (z(DAY, 7), z(DAY, 11)),
        (z(DAY, 13), z(DAY, 23)),  # 14:00-20:00 and 20:00-24:00 are one free stretch
    ]
    assert get(api, f"clubId={club.id}&startDate=2020-01-07")["data"] == []


def test_date_time_bounds(api, club, area):
    body = get(api, f"clubId={club.id}&startDate=2031-03-04T12:00:00Z&endDate=2031-03-04T15:00:00Z")
    assert [(r["startTime"], r["endTime"]) for r in body["data"]] == [(z(DAY, 12), z(DAY, 15))]
    body = get(api, f"clubId={club.id}&startDate=2031-03-04T12:00:00Z")  # until the end of that club day
    assert [(r["startTime"], r["endTime"]) for r in body["data"]] == [(z(DAY, 12), z(DAY, 21))]


@pytest.mark.parametrize(
    "query,fields",
    [
        ("", {"clubId", "startDate"}),
        ("clubId=1", {"startDate"}),
        ("startDate=2031-03-04", {"clubId"}),
        ("clubId={club}&startDate=2031-03-04&endDate=2031-03-18", {"endDate"}),
        ("clubId={club}&startDate=2031-03-04&endDate=2031-03-03", {"endDate"}),
        ("clubId={club}&startDate=03/04/2031", {"startDate"}),
        ("clubId={club}&startDate=2031-02-30", {"startDate"}),
        ("clubId={club}&startDate=2031-03-04&minDurationMinutes=0", {"minDurationMinutes"}),
        ("clubId={club}&startDate=2031-03-04&areaId=x", {"areaId"}),
        ("clubId={foreign}&startDate=2031-03-04", {"clubId"}),
        ("clubId=abc&startDate=2031-03-04", {"clubId"}),
    ],
)
def test_bad_queries(api, club, other_organization, query, fields):
    foreign = make_club(other_organization)
    response = api.get(f"/v1/platform/availability?{query.format(club=club.id, foreign=foreign.id)}")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "VALIDATION_ERROR"
    assert set(response.json()["details"]["fields"]) == fields


def test_fourteen_days_is_the_limit(api, club, area):
    body = get(api, f"clubId={club.id}&startDate=2031-03-04&endDate=2031-03-17")
    assert body["total"] == 14


def test_query_count_does_not_grow_with_areas(api, organization, club, count_queries):
    def add_area():
        a = make_area(organization, club)
        AreaBlock.objects.create(
            organization=organization, club=club, area=a, start_time=utc(DAY, 9), end_time=utc(DAY, 10)
        )
        Booking.objects.create(
            organization=organization, type="area", club=club, area=a, start_time=utc(DAY, 12), end_time=utc(DAY, 13)
        )

    add_area()
    url = f"/v1/platform/availability?clubId={club.id}&startDate={DAY}&endDate=2031-03-10&limit=200"
    one = count_queries(url)
    for _ in range(10):
        add_area()
    assert count_queries(url) == one


# --- Service helpers ----------------------------------------------------------------------------------------


def test_is_club_open_on(club):
    club.closed_dates = ["2031-12-25"]
    club.closing_date = dt.date(2032, 1, 1)
    club.opening_hours = {**club.opening_hours, "sunday": []}
    assert is_club_open_on(club, dt.date(2031, 12, 24))
    assert not is_club_open_on(club, dt.date(2031, 12, 25))
    assert not is_club_open_on(club, dt.date(2031, 12, 28))  # a Sunday
    assert not is_club_open_on(club, dt.date(2032, 1, 1))
    assert not is_club_open_on(club, dt.date(2032, 1, 2))


def test_opening_intervals_are_utc_and_dst_aware(club):
    assert opening_intervals(club, dt.date(2031, 1, 15)) == [(utc("2031-01-15", 7), utc("2031-01-15", 21))]
    assert opening_intervals(club, dt.date(2031, 7, 15)) == [(utc("2031-07-15", 6), utc("2031-07-15", 20))]
    club.opening_hours = {"sunday": [["00:00", "24:00"]]}
    # 2031-03-30 has only 23 hours in Madrid
    assert opening_intervals(club, dt.date(2031, 3, 30)) == [(utc("2031-03-29", 23), utc("2031-03-30", 22))]
    assert opening_intervals(club, dt.date(2031, 3, 31)) == []
