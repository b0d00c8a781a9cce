"""Bookable court times: the public module of the marketplace (the search below, and the gym page's free times).

A court time is a start on the club's wall clock at a whole multiple of `STEP_MINUTES` past midnight (10:00,
10:30, ...) such that `[start, start + duration)` (real elapsed time, so DST-correct) lies inside one of the club's
opening intervals of that day and overlaps nothing that occupies the court (`apps.occupancy.queries`: active
bookings, blocks, active classes; the truth the Platform API's booking checks read), and does not start in the
past. The grid is the kernel's (`apps.kernel.clock.start_grid`): a wall-clock time that does not exist (the hour
skipped when the clocks go forward) is not offered; one that happens twice (when they go back) is offered at both
instants, in the order they happen. The price is the pricing rules' quote for a non-member, tax included.

Entry points:

- `free_slots(club, areas, day, busy, ...)`: one club's free court times of a day over rows the caller loaded (no
  queries); the gym's page (`pages/page.py`) lists these, `is_free` checks an offer's own time off the grid.
- `search_offers(...)`: `POST /v1/public/network/search/offers`, a bounded number of queries whatever the number
  of clubs in range; only the returned page is priced.
"""

import bisect
import datetime as dt
import functools
import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.postgres.expressions import ArraySubquery
from django.contrib.postgres.fields import ArrayField
from django.db.models import F, FloatField, Func, OuterRef, Q, TextField
from django.db.models.functions import Cast
from django.utils import timezone

from apps.clubs.choices import WEEKDAYS
from apps.clubs.models import Area, Club
from apps.clubs.services import is_club_open_on, opening_intervals
from apps.kernel import clock, money
from apps.occupancy.queries import area_blocks, area_bookings, area_classes
from apps.pricing import quote as pricing
from apps.pricing.models import PricingRule

from . import geo, listing
from .choices import OfferDuration
from .shapes import Offer

STEP_MINUTES = 30
DURATIONS = tuple(OfferDuration.values)
DEFAULT_RADIUS_KM = 25
MAX_RADIUS_KM = 100
AREA_COLUMNS = ("id", "club_id", "name", "area_type_id", "hourly_rate", "position")


@dataclass(frozen=True)
class Slot:
    """A free court time: `start`/`end` aware UTC instants, `date`/`time` on the club's clock."""

    area_id: int
    start: dt.datetime
    end: dt.datetime
    date: dt.date
    time: str  # HH:MM


def day_bounds(club: Club, day: dt.date) -> tuple[dt.datetime, dt.datetime]:
    """The UTC instants of the start of `day` and of the next day on the club's clock."""
    return clock.day_bounds(day, clock.zone_of(club))


def _epoch(value) -> float:
    return value if isinstance(value, int | float) else value.timestamp()


def _merged(intervals) -> tuple[list[float], list[float]]:
    """Occupied intervals (epoch seconds), merged: (starts, ends), both sorted."""
    starts: list[float] = []
    ends: list[float] = []
    for start, end in sorted(intervals):
        if ends and start <= ends[-1]:
            ends[-1] = max(ends[-1], end)
        else:
            starts.append(start)
            ends.append(end)
    return starts, ends


@dataclass(frozen=True)
class _Grid:
    """A club's start times of a day (`starts` epoch seconds, `labels` HH:MM) and, per court, which are taken."""

    starts: list[float]
    labels: list[str]
    area_ids: list[int]
    # Per court, the index ranges [lo, hi) of its taken starts; both bounds never decrease along the list.
    taken: list[list[tuple[int, int]]]

    @property
    def free_count(self) -> int:
        """Counted on the ranges (every club in range is counted, few are listed)."""
        covered = 0
        for ranges in self.taken:
            reach = 0
            for lo, hi in ranges:
                lo = max(lo, reach)
                if hi > lo:
                    covered += hi - lo
                    reach = hi
        return len(self.starts) * len(self.area_ids) - covered

    def free_times(self) -> list[tuple[float, str, int]]:
        """`(start epoch, "HH:MM", area id)` of every free court time, by time then by court order."""
        taken = []
        for ranges in self.taken:
            flags = bytearray(len(self.starts))
            for lo, hi in ranges:
                flags[lo:hi] = b"\x01" * max(0, hi - lo)
            taken.append(flags)
        return [
            (start, self.labels[i], area_id)
            for i, start in enumerate(self.starts)
            for area_id, flags in zip(self.area_ids, taken, strict=True)
            if not flags[i]
        ]


@functools.lru_cache(maxsize=4096)
def _open_starts(
    timezone_name: str,
    day: dt.date,
    hours: tuple[tuple[str, ...], ...],
    duration_minutes: int,
    earliest: dt.time | None,
    latest: dt.time | None,
) -> tuple[tuple[float, ...], tuple[str, ...]]:
    """The starts (epoch seconds, sorted) and their labels of the grid whose `[start, start + duration)` lies in
    one opening interval of `day` with these opening hours: the same for every club with the same zone and hours
    (a network mostly shares a handful), so computed once per process and day."""
    weekday = WEEKDAYS[day.weekday()]
    stand_in = Club(timezone=timezone_name, opening_hours={weekday: [list(pair) for pair in hours]})
    opening = [(a.timestamp(), b.timestamp()) for a, b in opening_intervals(stand_in, day)]
    length = duration_minutes * 60
    tz = clock.zone(timezone_name)
    kept = [
        (start.timestamp(), clock.hhmm(start, tz))
        for start in clock.start_grid(day, tz, STEP_MINUTES, earliest, latest)
        if any(open_ <= start.timestamp() and start.timestamp() + length <= close for open_, close in opening)
    ]
    return tuple(start for start, _ in kept), tuple(label for _, label in kept)


def _club_starts(club: Club, day: dt.date, duration_minutes: int, earliest, latest) -> tuple[tuple, tuple]:
    if not is_club_open_on(club, day):
        return (), ()
    day_hours = (club.opening_hours or {}).get(WEEKDAYS[day.weekday()]) or []
    try:
        hours = tuple(tuple(str(value) for value in pair) for pair in day_hours)
    except TypeError:  # a malformed stored interval: opening_intervals skips it
        hours = ()
    return _open_starts(club.timezone or "UTC", day, hours, duration_minutes, earliest, latest)


def _grid_of(
    club: Club,
    area_ids: Sequence[int],
    day: dt.date,
    busy: dict[int, list[tuple[float, float]]],
    duration_minutes: int,
    earliest: dt.time | None,
    latest: dt.time | None,
    now: float,
) -> _Grid:
    """The club's start grid inside its opening hours and not before `now`, with each court's occupied intervals
    (epoch seconds) marked on it: a start `s` is taken by an occupied `[b, e)` when `b - duration < s < e` (two
    bisections per occupied interval, nothing per start)."""
    all_starts, all_labels = _club_starts(club, day, duration_minutes, earliest, latest) if area_ids else ((), ())
    first = bisect.bisect_left(all_starts, now)
    starts, labels = list(all_starts[first:]), list(all_labels[first:])
    length = duration_minutes * 60
    taken = []
    for area_id in area_ids:
        ranges = []
        if starts:
            for b_start, b_end in zip(*_merged(busy.get(area_id, ())), strict=True):
                ranges.append((bisect.bisect_right(starts, b_start - length), bisect.bisect_left(starts, b_end)))
        taken.append(ranges)
    return _Grid(starts=starts, labels=labels, area_ids=list(area_ids), taken=taken)


def free_slots(
    club: Club,
    areas: Sequence,
    day: dt.date,
    busy: dict[int, list[tuple]],
    *,
    duration_minutes: int = 60,
    earliest: dt.time | None = None,
    latest: dt.time | None = None,
    now: dt.datetime | None = None,
) -> list[Slot]:
    """The free court times of `club`'s `areas` (objects or rows with `id`) on `day`, ordered by time, then by
    the order of `areas`. `busy` maps an area id to its occupied `(start, end)` intervals, aware date-times or
    epoch seconds (any that overlap the day; `apps.occupancy.queries.busy_intervals`). No queries."""
    area_ids = [area["id"] if isinstance(area, dict) else area.id for area in areas]
    busy = {area_id: [(_epoch(s), _epoch(e)) for s, e in busy.get(area_id, ())] for area_id in area_ids}
    now = (timezone.now() if now is None else now).timestamp()
    length = dt.timedelta(minutes=duration_minutes)
    slots = []
    grid = _grid_of(club, area_ids, day, busy, duration_minutes, earliest, latest, now)
    for epoch, label, area_id in grid.free_times():
        start = dt.datetime.fromtimestamp(epoch, dt.UTC)
        slots.append(Slot(area_id=area_id, start=start, end=start + length, date=day, time=label))
    return slots


def is_free(club: Club, area_id: int, day: dt.date, start: dt.datetime, busy, duration_minutes: int, now) -> bool:
    """Whether the court time `[start, start + duration)` on `day` is bookable though off the grid (an offer link's
    own time): inside one opening interval of the day, not before `now`, overlapping nothing in `busy[area_id]`."""
    end = start + dt.timedelta(minutes=duration_minutes)
    if start < now or not any(opens <= start and end <= closes for opens, closes in opening_intervals(club, day)):
        return False
    return not any(
        _epoch(b_start) < end.timestamp() and start.timestamp() < _epoch(b_end)
        for b_start, b_end in busy.get(area_id, ())
    )


EPOCH_TEMPLATE = "EXTRACT(EPOCH FROM %(expressions)s)::float8"
OCCUPIERS = {"booked": area_bookings, "blocked": area_blocks, "in_class": area_classes}


def _occupied(start: dt.datetime, end: dt.datetime) -> dict:
    """Annotations of a court row: what occupies it in [start, end), one `[[start, end], ...]` array of epoch
    seconds per source of `apps.occupancy.queries.busy_intervals` (bookings, blocks, classes). Each is a subquery
    on the court's own id, which the bookings' `booking_area_no_overlap` GiST index answers with the court and the
    time range together: a handful of index entries per court, however many bookings the network has that day
    (one range scan over the day read every court's bookings and kept those of the courts in range)."""
    pair = Func(
        Func(F("start_time"), template=EPOCH_TEMPLATE),
        Func(F("end_time"), template=EPOCH_TEMPLATE),
        template="ARRAY[%(expressions)s]",
        output_field=ArrayField(FloatField()),
    )
    return {
        name: ArraySubquery(occupier(start, end).filter(area_id=OuterRef("id")).order_by().values_list(pair))
        for name, occupier in OCCUPIERS.items()
    }


@dataclass(frozen=True)
class _Seller:
    currency: str
    default_tax_rate: Decimal


@dataclass(frozen=True)
class _SearchedClub:
    """The columns of a club that a search reads, as the `Club` attributes the clock and opening-hours rules use:
    a row, not a model instance (a `Club` has about 40 fields to mark deferred, a third of the search's time)."""

    COLUMNS = ("id", "organization_id", "slug", "name", "timezone", "opening_hours", "closed_dates", "closing_date")

    id: int
    organization_id: int
    slug: str
    name: str
    timezone: str
    opening_hours: dict
    closed_dates: list
    closing_date: dt.date | None
    organization: _Seller


def area_sport(area_sports: Iterable[str], wanted: Sequence[str]) -> str | None:
    """The offer's sport: the first requested sport the court serves; without a request, the court's only
    sport (as the quote defaults it), else none."""
    area_sports = list(area_sports or [])
    if wanted:
        return next((s for s in wanted if s in area_sports), None)
    return area_sports[0] if len(area_sports) == 1 else None


def search_offers(
    *,
    latitude: float,
    longitude: float,
    day: dt.date,
    sports: Sequence[str] = (),
    earliest: dt.time | None = None,
    latest: dt.time | None = None,
    duration_minutes: int = 60,
    radius_km: float = DEFAULT_RADIUS_KM,
    limit: int = 50,
    offset: int = 0,
    now: dt.datetime | None = None,
) -> tuple[list[Offer], int]:
    """(the page of offers, the total): free court times of the listed clubs open on `day` within `radius_km`,
    nearest club first, then by time, then by court (position). Three queries: clubs (with their organization),
    courts with what occupies each of them that day (bookings, blocks and classes), and the pricing rules of the
    page's organizations."""
    now = timezone.now() if now is None else now
    sports = [s.strip().lower() for s in sports if s.strip()]
    rows = (
        listing.listed_clubs()
        .filter(listing.near(latitude, longitude, radius_km), listing.open_on(day))
        .annotate(distance=geo.distance_expression(latitude, longitude))
        .filter(distance__lte=radius_km)
        .order_by()
        .values_list("distance", *_SearchedClub.COLUMNS, "organization__currency", "organization__default_tax_rate")
    )
    # Nearest first, then by id: sorted here on the distances PostgreSQL computed (one expression less to compile).
    clubs = [
        _SearchedClub(*row[1:-2], organization=_Seller(*row[-2:])) for row in sorted(rows, key=lambda r: (r[0], r[1]))
    ]
    if not clubs:
        return [], 0
    areas = Area.objects.filter(club_id__in=[c.id for c in clubs], is_active=True)
    if sports:
        wanted = Q()
        for sport in sports:
            wanted |= Q(sports__contains=[sport])
        areas = areas.filter(wanted)
    # The courts and what occupies each of them over the clubs' day (a window spanning every club's clock).
    window_start = min(day_bounds(c, day)[0] for c in clubs)
    window_end = max(day_bounds(c, day)[1] for c in clubs)
    areas_by_club = defaultdict(list)
    busy = {}
    # `sports` as its JSON text: only the page's courts need it decoded (a few dozen of hundreds).
    sports_json = Cast("sports", TextField())
    rows = areas.order_by("position", "id").values(
        *AREA_COLUMNS, sports_json=sports_json, **_occupied(window_start, window_end)
    )
    for row in rows:
        areas_by_club[row["club_id"]].append(row)
        busy[row["id"]] = [pair for name in OCCUPIERS for pair in row.pop(name)]  # [start, end] lists
    clubs = [c for c in clubs if areas_by_club.get(c.id)]
    if not clubs:
        return [], 0

    # Every club's free times are counted (bisections over epoch seconds) for the total; only the clubs the page
    # reaches list theirs, and only the page is priced.
    now_epoch = now.timestamp()
    length = dt.timedelta(minutes=duration_minutes)
    total, page = 0, []
    for club in clubs:
        area_ids = [row["id"] for row in areas_by_club[club.id]]
        grid = _grid_of(club, area_ids, day, busy, duration_minutes, earliest, latest, now_epoch)
        count = grid.free_count
        if count and total + count > offset and len(page) < limit:
            skip = max(0, offset - total)
            for epoch, label, area_id in grid.free_times()[skip : skip + limit - len(page)]:
                start = dt.datetime.fromtimestamp(epoch, dt.UTC)
                page.append((club, Slot(area_id=area_id, start=start, end=start + length, date=day, time=label)))
        total += count
    if not page:
        return [], total

    rules_by_org = defaultdict(list)
    for rule in PricingRule.objects.filter(
        organization_id__in={club.organization_id for club, _ in page}, is_active=True
    ).values("organization_id", *pricing.RULE_COLUMNS):
        rules_by_org[rule["organization_id"]].append(rule)
    area_rows = {row["id"]: row for rows in areas_by_club.values() for row in rows}
    return [
        _offer(club, slot, area_rows[slot.area_id], sports, rules_by_org, duration_minutes) for club, slot in page
    ], total


def non_member_price(club: Club, area: dict, slot: Slot, sport: str | None, rules: list[dict]) -> Decimal:
    """The price of `slot` on the court `area` (a row with `id`, `area_type_id`, `hourly_rate`) for a non-member,
    tax included: the quote of the club's active pricing `rules`."""
    organization = club.organization
    return pricing.quote(
        rules,
        area=pricing.AreaFacts(
            id=area["id"], club_id=club.id, area_type_id=area["area_type_id"], hourly_rate=area["hourly_rate"]
        ),
        start=slot.start,
        end=slot.end,
        timezone=club.timezone or "UTC",
        sport=sport,
        member_plan_ids=frozenset(),
        tax_rate=Decimal(organization.default_tax_rate),
        exponent=money.currency_exponent(organization.currency),
    ).price


def _offer(club: Club, slot: Slot, area: dict, sports, rules_by_org, duration_minutes: int) -> Offer:
    organization = club.organization
    sport = area_sport(json.loads(area["sports_json"]), sports)
    rules = [r for r in rules_by_org[club.organization_id] if r["club_id"] is None or r["club_id"] == club.id]
    price = non_member_price(club, area, slot, sport, rules)
    return {
        "clubSlug": club.slug,
        "clubName": club.name,
        "areaId": area["id"],
        "areaName": area["name"],
        "sport": sport,
        "date": slot.date,
        "time": slot.time,
        "durationMinutes": duration_minutes,
        "price": float(price),
        "currency": organization.currency,
        "timezone": club.timezone or "UTC",
        "url": listing.page_url(
            club.slug, date=slot.date, time=slot.time, area_id=area["id"], duration=duration_minutes
        ),
    }
