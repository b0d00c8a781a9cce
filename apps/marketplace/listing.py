"""Which clubs the marketplace shows, the SQL forms of the rules it filters them by, and the links to a club's page."""

import datetime as dt
from urllib.parse import urlencode

from django.conf import settings
from django.db.models import Q, QuerySet

from apps.clubs.choices import WEEKDAYS
from apps.clubs.models import Club
from apps.organizations.choices import OrganizationStatus

from . import geo


def listed_clubs() -> QuerySet:
    """Clubs listed on the marketplace, active, of an active organization. The two literal club conditions are
    also the predicate of the partial index `club_marketplace_geo`, so the planner can use it."""
    return Club.objects.filter(marketplace_listed=True, is_active=True, organization__status=OrganizationStatus.ACTIVE)


def open_on(day: dt.date) -> Q:
    """Clubs open on `day` (a date on each club's own calendar): not a closed date, before the permanent closing
    date, and with opening hours that weekday. The SQL form of `apps.clubs.services.is_club_open_on`."""
    weekday = WEEKDAYS[day.weekday()]
    return (
        ~Q(closed_dates__contains=[day.isoformat()])
        & (Q(closing_date__isnull=True) | Q(closing_date__gt=day))
        & Q(opening_hours__has_key=weekday)
        & ~Q(**{f"opening_hours__{weekday}": []})
        & ~Q(**{f"opening_hours__{weekday}": None})
    )


def near(lat: float, lng: float, radius_km: float) -> Q:
    return Q(latitude__isnull=False, longitude__isnull=False) & geo.bounding_box(lat, lng, radius_km)


# The duration of the court times a page link shows when it names none.
DEFAULT_DURATION = 60


def club_url(slug: str) -> str:
    """The club's marketplace page."""
    return f"{settings.MARKETPLACE_URL}/clubs/{slug}"


def page_query(
    *, date: dt.date, time: str | None = None, area_id=None, duration=DEFAULT_DURATION, class_id=None, locale=None
) -> str:
    """The query string of a club's page, the one way every link writes it: `?date=` the day shown, then an
    offer's `time=` (HH:MM on the club's clock) and `areaId=` to preselect, `duration=` unless the default, a
    class's `classId=`, and the page's `locale=` when it was asked for one."""
    params = {"date": date.isoformat()}
    if time is not None:
        params["time"] = time
    if area_id is not None:
        params["areaId"] = area_id
    if duration != DEFAULT_DURATION:
        params["duration"] = duration
    if class_id is not None:
        params["classId"] = class_id
    if locale:
        params["locale"] = locale
    return "?" + urlencode(params, safe=":")


def page_url(slug: str, **query) -> str:
    """The club's page with `page_query(**query)`: the `url` of an offer or a class."""
    return club_url(slug) + page_query(**query)
