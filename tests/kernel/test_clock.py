"""The clock rules on both DST nights of Europe/Madrid in 2031: Sunday 30 March (02:00 CET jumps to 03:00 CEST:
02:00-02:59 never happens) and Sunday 26 October (03:00 CEST goes back to 02:00 CET: 02:00-02:59 happens twice)."""

import datetime as dt
from types import SimpleNamespace

import pytest

from apps.kernel import clock

MADRID = clock.zone("Europe/Madrid")
SPRING = dt.date(2031, 3, 30)
AUTUMN = dt.date(2031, 10, 26)
PLAIN = dt.date(2031, 6, 1)


def utc(*args):
    return dt.datetime(*args, tzinfo=dt.UTC)


def walls(instants):
    return [clock.hhmm(i, MADRID) + i.astimezone(MADRID).strftime("%z") for i in instants]


def test_zone_of_takes_the_first_holder_with_a_zone_else_utc():
    club = SimpleNamespace(timezone="")
    organization = SimpleNamespace(timezone="Europe/Madrid")
    assert clock.zone_of(club, organization).key == "Europe/Madrid"
    assert clock.zone_of(SimpleNamespace(timezone="Asia/Tokyo"), organization).key == "Asia/Tokyo"
    assert clock.zone_of(None, "America/New_York").key == "America/New_York"
    assert clock.zone_of(club, None).key == "UTC"
    assert clock.zone_of(None, MADRID) is MADRID
    assert clock.zone("Not/AZone").key == "UTC"
    assert clock.is_zone_name("Europe/Madrid") and not clock.is_zone_name("Not/AZone")


def test_today_is_the_date_on_the_holders_clock():
    now = utc(2031, 6, 1, 22, 30)  # 00:30 on 2 June in Madrid, 15:30 on 1 June in Los Angeles
    assert clock.today("Europe/Madrid", now=now) == dt.date(2031, 6, 2)
    assert clock.today(SimpleNamespace(timezone="America/Los_Angeles"), now=now) == dt.date(2031, 6, 1)
    assert clock.today(None, now=now) == dt.date(2031, 6, 1)


def test_day_bounds_last_23_hours_in_spring_25_in_autumn_24_otherwise():
    start, end = clock.day_bounds(SPRING, MADRID)
    assert (start, end) == (utc(2031, 3, 29, 23), utc(2031, 3, 30, 22))
    assert end - start == dt.timedelta(hours=23)
    start, end = clock.day_bounds(AUTUMN, MADRID)
    assert (start, end) == (utc(2031, 10, 25, 22), utc(2031, 10, 26, 23))
    assert end - start == dt.timedelta(hours=25)
    start, end = clock.day_bounds(PLAIN, MADRID)
    assert end - start == dt.timedelta(hours=24)


def test_day_bounds_of_a_day_whose_midnight_does_not_exist():
    # Santiago de Chile skips 00:00-00:59 on 7 September 2031: the day starts at 01:00 local.
    santiago = clock.zone("America/Santiago")
    start, end = clock.day_bounds(dt.date(2031, 9, 7), santiago)
    assert start.astimezone(santiago).time() == dt.time(1, 0)
    assert end - start == dt.timedelta(hours=23)


def test_a_nonexistent_wall_time_moves_forward_by_the_gap():
    assert clock.wall_time(SPRING, dt.time(2, 30), MADRID) == utc(2031, 3, 30, 1, 30)  # 03:30 CEST
    assert walls([clock.wall_time(SPRING, dt.time(2, 30), MADRID)]) == ["03:30+0200"]
    assert clock.wall_instants(SPRING, dt.time(2, 30), MADRID) == ()


def test_a_repeated_wall_time_is_its_first_occurrence_alone_and_both_in_a_list():
    assert clock.wall_time(AUTUMN, dt.time(2, 30), MADRID) == utc(2031, 10, 26, 0, 30)  # 02:30 CEST
    assert clock.wall_instants(AUTUMN, dt.time(2, 30), MADRID) == (utc(2031, 10, 26, 0, 30), utc(2031, 10, 26, 1, 30))
    assert clock.wall_instants(PLAIN, dt.time(2, 30), MADRID) == (utc(2031, 6, 1, 0, 30),)


def test_the_grid_leaves_out_the_missing_hour_in_spring():
    grid = clock.start_grid(SPRING, MADRID, 30, dt.time(1, 0), dt.time(4, 0))
    assert walls(grid) == ["01:00+0100", "01:30+0100", "03:00+0200", "03:30+0200", "04:00+0200"]
    assert grid == (utc(2031, 3, 30, 0), utc(2031, 3, 30, 0, 30), utc(2031, 3, 30, 1), utc(2031, 3, 30, 1, 30),
                    utc(2031, 3, 30, 2))  # fmt: skip


def test_the_grid_lists_the_repeated_hour_twice_in_the_order_it_happens_in_autumn():
    grid = clock.start_grid(AUTUMN, MADRID, 30, dt.time(1, 0), dt.time(3, 0))
    assert walls(grid) == [
        "01:00+0200",
        "01:30+0200",
        "02:00+0200",
        "02:30+0200",
        "02:00+0100",
        "02:30+0100",
        "03:00+0100",
    ]
    assert list(grid) == sorted(grid) and len(set(grid)) == len(grid)
    assert all(b - a == dt.timedelta(minutes=30) for a, b in zip(grid, grid[1:], strict=False))


@pytest.mark.parametrize(("day", "count"), [(SPRING, 46), (AUTUMN, 50), (PLAIN, 48)])
def test_a_whole_day_grid_has_one_start_per_step_of_elapsed_time(day, count):
    grid = clock.start_grid(day, MADRID, 30)
    assert len(grid) == count
    start, end = clock.day_bounds(day, MADRID)
    assert grid[0] == start and grid[-1] == end - dt.timedelta(minutes=30)


def test_the_grid_rounds_its_first_start_up_to_the_step_and_includes_the_last():
    grid = clock.start_grid(PLAIN, MADRID, 30, dt.time(9, 10), dt.time(10, 30))
    assert walls(grid) == ["09:30+0200", "10:00+0200", "10:30+0200"]
    assert clock.start_grid(PLAIN, MADRID, 60, dt.time(23, 0)) == (utc(2031, 6, 1, 21),)
