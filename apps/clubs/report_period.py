"""The period and club of the report endpoints (`/transactions/summary`, `/invoices/summary`, `/analytics/summary`).

`startDate`..`endDate` are whole days (`YYYY-MM-DD`, both inclusive) on one clock: the club's with `clubId`, the
organization's otherwise. With neither, the 30 days ending today; one bound alone is the 30 days starting or
ending there. At most `MAX_REPORT_DAYS` days: a longer span is a 400 on `endDate`.
"""

import datetime as dt
from dataclasses import dataclass

from django.utils.dateparse import parse_date
from drf_spectacular.utils import OpenApiParameter

from apps.api.exceptions import ValidationFailed
from apps.api.filters import int_value
from apps.kernel import clock

from .models import Club

DEFAULT_REPORT_DAYS = 30
MAX_REPORT_DAYS = 366
EARLIEST_DAY = dt.date(1900, 1, 1)
LATEST_DAY = dt.date(9998, 12, 31)

PERIOD_PARAMETERS = [
    OpenApiParameter(
        "startDate",
        dt.date,
        description="First day (inclusive) on the club's clock with `clubId`, else the organization's. Default: "
        f"{DEFAULT_REPORT_DAYS - 1} days before `endDate`.",
    ),
    OpenApiParameter(
        "endDate",
        dt.date,
        description=f"Last day (inclusive); at most {MAX_REPORT_DAYS} days from `startDate` counting both. Default: "
        f"today, or {DEFAULT_REPORT_DAYS - 1} days after `startDate` when only that is given.",
    ),
    OpenApiParameter("clubId", int, description="Only this club's figures (and the period on its clock)."),
]


@dataclass(frozen=True)
class ReportPeriod:
    start: dt.date
    end: dt.date  # inclusive
    timezone: str
    club_id: int | None

    @property
    def zone(self):
        return clock.zone(self.timezone)

    @property
    def lower(self) -> dt.datetime:
        """The first instant of the period."""
        return clock.day_bounds(self.start, self.zone)[0]

    @property
    def upper(self) -> dt.datetime:
        """The first instant after the period (exclusive)."""
        return clock.day_bounds(self.end, self.zone)[1]


def _day(params, name) -> dt.date | None:
    raw = params.get(name)
    if raw in (None, ""):
        return None
    try:
        day = parse_date(raw) if len(raw) == 10 else None
    except ValueError:  # well-formed but impossible, e.g. 2031-13-01
        day = None
    if day is None:
        raise ValidationFailed({name: ["Must be a date (YYYY-MM-DD)."]})
    if not EARLIEST_DAY <= day <= LATEST_DAY:
        raise ValidationFailed({name: [f"Must be between {EARLIEST_DAY} and {LATEST_DAY}."]})
    return day


def report_period(params, organization) -> ReportPeriod:
    """The validated period and club of a report request (400 VALIDATION_ERROR naming the parameter)."""
    club_id = int_value("clubId", params.get("clubId"))
    zone = organization.timezone
    if club_id is not None:
        club_zone = Club.objects.filter(organization=organization, id=club_id).values_list("timezone", flat=True)
        club_zone = next(iter(club_zone), None)
        if club_zone is None:
            raise ValidationFailed({"clubId": [f"No club with id {club_id} exists in this organization."]})
        zone = club_zone
    start, end = _day(params, "startDate"), _day(params, "endDate")
    span = dt.timedelta(days=DEFAULT_REPORT_DAYS - 1)
    if start is None and end is None:
        end = clock.today(zone)
    if start is None:
        start = max(EARLIEST_DAY, end - span)
    if end is None:
        end = min(LATEST_DAY, start + span)
    if end < start:
        raise ValidationFailed({"endDate": ["`endDate` must not be before `startDate`."]})
    days = (end - start).days + 1
    if days > MAX_REPORT_DAYS:
        raise ValidationFailed(
            {"endDate": [f"A report covers at most {MAX_REPORT_DAYS} days; {start}..{end} is {days} days."]}
        )
    return ReportPeriod(start=start, end=end, timezone=zone, club_id=club_id)
