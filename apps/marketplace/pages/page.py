"""What the gym's marketplace page shows: the listed club, its courts and prices, the day's free court times, the
upcoming classes, and the time an offer's link preselects. Only reads.

The club, its courts and its classes are read by the profile's queries (`apps.marketplace.profile`); the free
times are the offers module's (`offers.free_slots`: the kernel's start grid, inside opening hours, minus bookings,
blocks and classes, not before now), priced as the offers search prices them, so the page lists exactly the times
the search offers, the repeated hour of the night the clocks go back included. An offer's own time is always shown
when it is still free, even off that grid. Every link is `listing.page_query`'s.
"""

import datetime as dt
import re
from collections import defaultdict
from dataclasses import dataclass, field

from django.utils import timezone

from apps.api.presenters import resolve_translation
from apps.clubs.models import Amenity, Club
from apps.clubs.resources import club_rating
from apps.clubs.services import is_club_open_on
from apps.kernel import clock
from apps.occupancy.queries import busy_intervals
from apps.pricing.services import active_rules

from .. import offers, profile
from ..listing import DEFAULT_DURATION, page_query
from .labels import Labels

DURATIONS = offers.DURATIONS
# How far from the club's today a `date` may be: a year either way (older offer links still open the page).
MAX_DATE_DISTANCE = dt.timedelta(days=366)

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_TIME = re.compile(r"^\d{2}:\d{2}$")


@dataclass
class Selection:
    """The page's query: the day shown, the duration of the free times, and the offer's time to preselect."""

    date: dt.date
    duration: int = DEFAULT_DURATION
    time: dt.time | None = None
    area_id: int | None = None
    errors: list[str] = field(default_factory=list)

    @property
    def preselects(self) -> bool:
        return self.time is not None and self.area_id is not None


def parse_selection(query, area_ids: set[int], today: dt.date, labels: Labels) -> Selection:
    """`date`, `time`, `areaId` and `duration` from the query string; each unreadable one adds a message."""
    selection = Selection(date=today)
    errors = selection.errors
    raw_date = query.get("date", "").strip()
    if raw_date:
        try:
            if not _DATE.match(raw_date):
                raise ValueError(raw_date)
            selection.date = dt.date.fromisoformat(raw_date)
            if abs(selection.date - today) > MAX_DATE_DISTANCE:
                raise ValueError(raw_date)
        except ValueError:
            errors.append(labels.get("invalid_date"))
    raw_time = query.get("time", "").strip()
    if raw_time:
        try:
            if not _TIME.match(raw_time):
                raise ValueError(raw_time)
            selection.time = dt.time.fromisoformat(raw_time)
        except ValueError:
            errors.append(labels.get("invalid_time"))
    raw_area = query.get("areaId", "").strip()
    if raw_area:
        if raw_area.isdigit() and len(raw_area) <= 18 and int(raw_area) in area_ids:
            selection.area_id = int(raw_area)
        else:
            errors.append(labels.get("invalid_area"))
    raw_duration = query.get("duration", "").strip()
    if raw_duration:
        if raw_duration.isdigit() and int(raw_duration) in DURATIONS:
            selection.duration = int(raw_duration)
        else:
            errors.append(labels.get("invalid_duration"))
    return selection


def free_times(club: Club, courts: list[dict], selection: Selection, now: dt.datetime, labels: Labels, link_locale):
    """Per court: `{area, slots: [{time, end, price, selected, query}]}` on `selection.date`, and the preselected
    slot (None when nothing is preselected or the offer's time is no longer free). Each slot's `query` selects it
    (keeping `locale` when the page was asked for one)."""
    tz = clock.zone_of(club)
    day, duration = selection.date, selection.duration
    day_start, day_end = clock.day_bounds(day, tz)
    busy = defaultdict(list)
    for area_id, b_start, b_end in busy_intervals([court["id"] for court in courts], day_start, day_end):
        busy[area_id].append((b_start, b_end))
    slots = offers.free_slots(club, courts, day, busy, duration_minutes=duration, now=now)
    wanted = None
    if selection.preselects:
        # The link's time: its first occurrence that is free (a repeated wall time happens twice).
        wanted = next(
            (
                instant
                for instant in clock.wall_instants(day, selection.time, tz)
                if offers.is_free(club, selection.area_id, day, instant, busy, duration, now)
            ),
            None,
        )
        if wanted is not None and not any(s.area_id == selection.area_id and s.start == wanted for s in slots):
            end = wanted + dt.timedelta(minutes=duration)
            off_grid = offers.Slot(selection.area_id, wanted, end, day, clock.hhmm(wanted, tz))
            slots = sorted([*slots, off_grid], key=lambda slot: slot.start)
    rules = active_rules(club.organization, club.id)
    currency = club.organization.currency
    by_area = {court["id"]: [] for court in courts}
    for slot in slots:
        by_area[slot.area_id].append(slot)
    result, selected = [], None
    for court in courts:
        sport = offers.area_sport(court["sports"], ())
        entries = []
        for slot in by_area[court["id"]]:
            price = labels.money(offers.non_member_price(club, court, slot, sport, rules), currency)
            is_selected = slot.area_id == selection.area_id and slot.start == wanted
            entry = {
                "time": slot.time,
                "end": clock.hhmm(slot.end, tz),
                "price": price,
                "selected": is_selected,
                "query": page_query(
                    locale=link_locale, date=day, time=slot.time, area_id=court["id"], duration=duration
                ),
            }
            if is_selected:
                selected = {**entry, "court": court["name"]}
            entries.append(entry)
        result.append({"area": court, "slots": entries})
    return result, selected


def court_rows(club: Club, courts: list[dict], labels: Labels) -> list[dict]:
    organization = club.organization
    return [
        {
            "id": court["id"],
            "name": court["name"],
            "sports": ", ".join(court["sports"] or []),
            "kind": labels.get("indoor") if court["is_indoor"] else labels.get("outdoor"),
            "area_type": court["area_type__name"] or "",
            "rate": labels.money(organization.tax_inclusive(court["hourly_rate"]), organization.currency)
            if court["hourly_rate"] is not None
            else labels.get("no_rate"),
        }
        for court in courts
    ]


def upcoming_classes(club: Club, now: dt.datetime, labels: Labels, locale: str) -> list[dict]:
    """The club's active `Public` classes starting in the next 14 days (at most 50), with spots left."""
    organization = club.organization
    tz = clock.zone_of(club)
    rows = profile.upcoming_classes(club, now)
    _, names = profile.club_instructors(club, rows, available=False)
    classes = []
    for row in rows:
        start, end = row["start_time"].astimezone(tz), row["end_time"].astimezone(tz)
        instructors = profile.class_instructor_names(row, names)
        booked = row["booked_total"] + row["walk_in_total"]
        spots = None if row["max_capacity"] is None else max(0, row["max_capacity"] - booked)
        if row["is_free"]:
            price = labels.get("free")
        elif row["price_before_tax"] is not None:
            price = labels.money(organization.tax_inclusive(row["price_before_tax"]), organization.currency)
        else:
            price = ""
        name = resolve_translation(row["translations"], locale, organization.default_language, "name", row["name"])
        classes.append(
            {
                "id": row["id"],
                "name": name,
                "when": labels.get(
                    "class_time",
                    date=labels.date(start.date()),
                    start=start.strftime("%H:%M"),
                    end=end.strftime("%H:%M"),
                ),
                "start": start.isoformat(),
                "instructors": labels.get("instructors", names=", ".join(instructors)) if instructors else "",
                "price": price,
                "spots": labels.get("full")
                if spots == 0
                else (labels.get("spots_left", n=spots) if spots is not None else ""),
            }
        )
    return classes


def amenities(club: Club, locale: str) -> list[str]:
    codes = [str(code) for code in club.amenities or []]
    if not codes:
        return []
    names = {a.code: a.names or {} for a in Amenity.objects.filter(code__in=codes)}
    default = club.organization.default_language
    return [
        names[code].get(locale) or names[code].get(default) or names[code].get("en") or code
        for code in codes
        if code in names
    ]


def build_page(
    club: Club, query, *, locale: str, labels: Labels, link_locale: str | None = None, now: dt.datetime | None = None
) -> dict:
    """The template context of the club's page, or `{"errors": [...]}` when the query cannot be read.
    `link_locale`: the `locale` the page's own links keep (None when the page was not asked for one)."""
    now = now or timezone.now()
    today = clock.local_date(now, club)
    courts = profile.active_courts(club)
    selection = parse_selection(query, {court["id"] for court in courts}, today, labels)
    if selection.errors:
        return {"errors": selection.errors}
    per_area, selected = free_times(club, courts, selection, now, labels, link_locale)
    unavailable = None
    if selection.preselects and selected is None:
        court = next(court["name"] for court in courts if court["id"] == selection.area_id)
        unavailable = labels.get(
            "unavailable", court=court, date=labels.date(selection.date), time=selection.time.strftime("%H:%M")
        )
    if selected is not None:
        selected["summary"] = labels.get(
            "selected_summary",
            court=selected["court"],
            date=labels.date(selection.date),
            start=selected["time"],
            end=selected["end"],
        )
    stars = club_rating(vars(club))
    return {
        "club": club,
        "organization": club.organization,
        "selection": selection,
        "date_label": labels.date(selection.date),
        "today": today,
        "open": is_club_open_on(club, selection.date),
        "courts": court_rows(club, courts, labels),
        "free_times": per_area,
        "selected": selected,
        "unavailable": unavailable,
        "classes": upcoming_classes(club, now, labels, locale),
        "amenities": amenities(club, locale),
        "rating": labels.get("rating", **stars) if stars else "",
        "durations": [
            {"value": d, "label": labels.get("minutes", n=d), "chosen": d == selection.duration} for d in DURATIONS
        ],
    }
