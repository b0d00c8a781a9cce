"""Which clubs the marketplace shows, and the SQL forms of the rules it filters them by."""

import datetime as dt

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


def club_url(slug: str) -> str:
    """The club's marketplace page."""
    return f"{settings.MARKETPLACE_URL}/clubs/{slug}"
