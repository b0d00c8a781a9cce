"""What the gym's marketplace page shows: the listed club, its courts and prices, the day's free court times, the
upcoming classes, and the time an offer's link preselects. Only reads.

Free times are the occupancy module's free intervals (inside opening hours, minus bookings, blocks and classes, not
before now), cut into start times every `SLOT_STEP_MINUTES` on the club's wall clock (:00 and :30) that fit the
chosen duration. Each is priced by the pricing-rule quote for a non-member, tax included, as the offers search
prices it. An offer's own time is always shown when it is still free, even off that grid.
"""

import datetime as dt
import re
from dataclasses import dataclass, field
from urllib.parse import urlencode

from django.db.models import Prefetch
from django.utils import timezone

from apps.api.presenters import resolve_translation
from apps.classes.choices import ClassStatus, Visibility
from apps.classes.models import ClassOccurrence
from apps.clubs.models import Amenity, Area, Club
from apps.clubs.services import club_tz, is_club_open_on
from apps.contacts.models import display_name
from apps.instructors.models import Instructor
from apps.occupancy.availability import free_intervals
from apps.occupancy.queries import class_seat_counts
from apps.organizations.choices import OrganizationStatus
from apps.pricing import quote as pricing
from apps.pricing.services import active_rules, default_sport

from .labels import Labels

DURATIONS = (30, 60, 90, 120)
DEFAULT_DURATION = 60
SLOT_STEP_MINUTES = 30
CLASS_DAYS = 14
MAX_CLASSES = 50
# How far from the club's today a `date` may be: a year either way (older offer links still open the page).
MAX_DATE_DISTANCE = dt.timedelta(days=366)

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_TIME = re.compile(r"^\d{2}:\d{2}$")


def listed_club(slug: str) -> Club | None:
    """The club the marketplace lists under `slug`: active, `marketplace_listed`, of an active organization.

    `Club.slug` is unique per organization only; while two listed clubs share one, the oldest (lowest id) wins.
    """
    if not slug or len(slug) > 100:
        return None
    return (
        Club.objects.select_related("organization")
        .filter(slug=slug, marketplace_listed=True, is_active=True, organization__status=OrganizationStatus.ACTIVE)
        .order_by("id")
        .first()
    )


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


def page_query(*, locale: str | None, date: dt.date, time: str | None = None, area_id=None, duration=60) -> str:
    """The page's own query string (`?date=...&time=...&areaId=...`), as offer links write it."""
    params = {"date": date.isoformat()}
    if time is not None:
        params["time"] = time
    if area_id is not None:
        params["areaId"] = area_id
    if duration != DEFAULT_DURATION:
        params["duration"] = duration
    if locale:
        params["locale"] = locale
    return "?" + urlencode(params)


def _local_midnight(day: dt.date, tz) -> dt.datetime:
    return dt.datetime.combine(day, dt.time.min, tzinfo=tz).astimezone(dt.UTC)


def _wall_instant(day: dt.date, wall: dt.time, tz) -> dt.datetime | None:
    """The instant the club's clock reads `wall` on `day` (the first one when the clocks go back); None for a time
    the clocks skip."""
    local = dt.datetime.combine(day, wall, tzinfo=tz)
    instant = local.astimezone(dt.UTC)
    if instant.astimezone(tz).replace(tzinfo=None) != local.replace(tzinfo=None):
        return None
    return instant


def _grid_starts(start: dt.datetime, end: dt.datetime, duration: dt.timedelta, tz) -> list[dt.datetime]:
    """Start times inside free time [start, end) on the club's :00/:30 grid that leave room for `duration`."""
    local = start.astimezone(tz)
    offset = (-(local.minute % SLOT_STEP_MINUTES)) % SLOT_STEP_MINUTES
    first = (local + dt.timedelta(minutes=offset)).replace(second=0, microsecond=0)
    if first < local:
        first += dt.timedelta(minutes=SLOT_STEP_MINUTES)
    starts = []
    current = first.astimezone(dt.UTC)
    while current + duration <= end:
        starts.append(current)
        current += dt.timedelta(minutes=SLOT_STEP_MINUTES)
    return starts


class PagePricing:
    """The non-member quote of the club's areas (the organization's active rules, loaded once)."""

    def __init__(self, club: Club):
        organization = club.organization
        self.rules = active_rules(organization, club.id)
        self.timezone = club.timezone or "UTC"
        self.tax_rate = organization.default_tax_rate
        self.exponent = pricing.currency_exponent(organization.currency)

    def price(self, area: Area, start: dt.datetime, end: dt.datetime):
        facts = pricing.AreaFacts(
            id=area.id, club_id=area.club_id, area_type_id=area.area_type_id, hourly_rate=area.hourly_rate
        )
        return pricing.quote(
            self.rules,
            area=facts,
            start=start,
            end=end,
            timezone=self.timezone,
            sport=default_sport(area),
            member_plan_ids=frozenset(),
            tax_rate=self.tax_rate,
            exponent=self.exponent,
        ).price


def free_times(club: Club, areas: list[Area], selection: Selection, now: dt.datetime, labels: Labels, link_locale):
    """Per area: `{area, slots: [{time, end, price, selected, query}]}` on `selection.date`, and the preselected
    slot (None when nothing is preselected or the offer's time is no longer free). Each slot's `query` selects it
    (keeping `locale` when the page was asked for one)."""
    tz = club_tz(club)
    duration = dt.timedelta(minutes=selection.duration)
    day_start = _local_midnight(selection.date, tz)
    day_end = _local_midnight(selection.date + dt.timedelta(days=1), tz)
    intervals = free_intervals(club, areas, day_start, day_end + duration, min_duration=duration, not_before=now)
    wanted = None
    if selection.preselects:
        wanted = _wall_instant(selection.date, selection.time, tz)
    prices = PagePricing(club)
    currency = club.organization.currency
    by_area = {area.id: [] for area in areas}
    for interval in intervals:
        starts = _grid_starts(interval["startTime"], interval["endTime"], duration, tz)
        if (
            wanted is not None
            and interval["areaId"] == selection.area_id
            and interval["startTime"] <= wanted
            and wanted + duration <= interval["endTime"]
            and wanted not in starts
        ):
            starts = sorted([*starts, wanted])
        by_area[interval["areaId"]] += [s for s in starts if day_start <= s < day_end]
    result, selected = [], None
    for area in areas:
        slots = []
        for start in by_area[area.id]:
            end = start + duration
            hhmm = start.astimezone(tz).strftime("%H:%M")
            price = labels.money(prices.price(area, start, end), currency)
            is_selected = wanted is not None and area.id == selection.area_id and start == wanted
            slot = {
                "time": hhmm,
                "end": end.astimezone(tz).strftime("%H:%M"),
                "price": price,
                "selected": is_selected,
                "query": page_query(
                    locale=link_locale, date=selection.date, time=hhmm, area_id=area.id, duration=selection.duration
                ),
            }
            if is_selected:
                selected = {**slot, "court": area.name}
            slots.append(slot)
        result.append({"area": area, "slots": slots})
    return result, selected


def courts(club: Club, areas: list[Area], labels: Labels) -> list[dict]:
    organization = club.organization
    return [
        {
            "id": area.id,
            "name": area.name,
            "sports": ", ".join(area.sports or []),
            "kind": labels.get("indoor") if area.is_indoor else labels.get("outdoor"),
            "area_type": area.area_type.name if area.area_type_id else "",
            "rate": labels.money(organization.tax_inclusive(area.hourly_rate), organization.currency)
            if area.hourly_rate is not None
            else labels.get("no_rate"),
        }
        for area in areas
    ]


def upcoming_classes(club: Club, now: dt.datetime, labels: Labels, locale: str) -> list[dict]:
    """The club's active `Public` classes starting in the next 14 days (at most 50), with spots left."""
    organization = club.organization
    tz = club_tz(club)
    counts = class_seat_counts()
    rows = (
        ClassOccurrence.objects.filter(
            club=club,
            status=ClassStatus.ACTIVE,
            visibility=Visibility.PUBLIC,
            start_time__gte=now,
            start_time__lt=now + dt.timedelta(days=CLASS_DAYS),
        )
        .annotate(booked=counts["booked_total"] + counts["walk_in_total"])
        .prefetch_related(Prefetch("instructors", queryset=Instructor.objects.select_related("contact")))
        .order_by("start_time", "id")[:MAX_CLASSES]
    )
    classes = []
    for row in rows:
        start, end = row.start_time.astimezone(tz), row.end_time.astimezone(tz)
        names = [display_name(i.contact.first_name, i.contact.last_name) for i in row.instructors.all()]
        spots = None if row.max_capacity is None else max(0, row.max_capacity - row.booked)
        if row.is_free:
            price = labels.get("free")
        elif row.price_before_tax is not None:
            price = labels.money(organization.tax_inclusive(row.price_before_tax), organization.currency)
        else:
            price = ""
        classes.append(
            {
                "id": row.id,
                "name": resolve_translation(row.translations, locale, organization.default_language, "name", row.name),
                "when": labels.get(
                    "class_time",
                    date=labels.date(start.date()),
                    start=start.strftime("%H:%M"),
                    end=end.strftime("%H:%M"),
                ),
                "start": start.isoformat(),
                "instructors": labels.get("instructors", names=", ".join(names)) if names else "",
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
    tz = club_tz(club)
    today = now.astimezone(tz).date()
    areas = list(Area.objects.filter(club=club, is_active=True).select_related("area_type").order_by("position", "id"))
    selection = parse_selection(query, {a.id for a in areas}, today, labels)
    if selection.errors:
        return {"errors": selection.errors}
    per_area, selected = free_times(club, areas, selection, now, labels, link_locale)
    unavailable = None
    if selection.preselects and selected is None:
        court = next(a.name for a in areas if a.id == selection.area_id)
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
    ratings = list(club.reviews.filter(is_public=True).values_list("rating", flat=True))
    return {
        "club": club,
        "organization": club.organization,
        "selection": selection,
        "date_label": labels.date(selection.date),
        "today": today,
        "open": is_club_open_on(club, selection.date),
        "courts": courts(club, areas, labels),
        "free_times": per_area,
        "selected": selected,
        "unavailable": unavailable,
        "classes": upcoming_classes(club, now, labels, locale),
        "amenities": amenities(club, locale),
        "rating": labels.get("rating", average=round(sum(ratings) / len(ratings), 1), total=len(ratings))
        if ratings
        else "",
        "durations": [
            {"value": d, "label": labels.get("minutes", n=d), "chosen": d == selection.duration} for d in DURATIONS
        ],
    }
