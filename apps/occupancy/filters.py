"""Query parameters of the area blocks list and of availability."""

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Q

from apps.api.exceptions import ValidationFailed
from apps.api.filters import date_window as parse_date_window
from apps.api.filters import int_value
from apps.api.filtersets import DateWindow, IntegerFilter, NoOpFilter, Ordering, PlatformFilterSet
from apps.clubs.filters import AnySportFilter
from apps.clubs.models import Club
from apps.kernel import clock


def date_window(params, tz):
    """The shared window parser, with an impossible (`2031-13-01`) or out-of-range (`9999-12-31`) date as a 400."""
    try:
        return parse_date_window(params, tz)
    except (ValueError, OverflowError):
        names = [n for n in ("startDate", "endDate") if params.get(n)]
        raise ValidationFailed({n: ["Must be a valid date (YYYY-MM-DD) or a date-time with an offset."] for n in names})


@dataclass(frozen=True)
class OverlapWindow(DateWindow):
    """Rows (blocks) overlapping `startDate`..`endDate`; bare dates are whole days on each row's club clock."""

    def apply(self, queryset, params, organization):
        if params.get("startDate") in (None, "") and params.get("endDate") in (None, ""):
            return queryset
        clubs = Club.objects.filter(organization=organization)
        club_id = int_value("clubId", params.get("clubId"))
        if club_id is not None:
            clubs = clubs.filter(id=club_id)
        by_tz = defaultdict(list)
        for cid, tz in clubs.values_list("id", "timezone"):
            by_tz[tz or "UTC"].append(cid)
        if not by_tz:
            by_tz["UTC"] = []
        condition = Q(pk__in=[])
        for tz, club_ids in by_tz.items():
            lower, upper, upper_exclusive = date_window(params, clock.zone(tz))
            part = Q(club_id__in=club_ids)
            if lower is not None:
                part &= Q(end_time__gt=lower)
            if upper is not None:
                part &= Q(start_time__lt=upper) if upper_exclusive else Q(start_time__lte=upper)
            condition |= part
        return queryset.filter(condition)


class AreaBlockFilterSet(PlatformFilterSet):
    clubId = IntegerFilter("club_id")
    areaId = IntegerFilter("area_id")

    date_window = OverlapWindow(
        "start_time",
        start_help="Date (club clock) or date-time; blocks overlapping the range.",
        end_help="Date (club clock, inclusive) or date-time.",
    )
    ordering = Ordering(
        {"startTime": "start_time", "endTime": "end_time", "createdAt": "created_at", "id": "id"},
        default="startTime",
        help_text="`startTime` (default), `endTime`, `createdAt`.",
    )


class IntegerParameter(NoOpFilter):
    schema = {"type": "integer"}


class DateParameter(NoOpFilter):
    schema = {"type": "string", "format": "date"}


class AvailabilityFilterSet(PlatformFilterSet):
    """The areas availability computes over (`areaId`, `sport`); the club, the dates and the minimum duration are
    only documented here: the view checks them first, in its own order."""

    clubId = IntegerParameter(required=True)
    startDate = DateParameter(required=True, help_text="First day, on the club's clock.")
    endDate = DateParameter(help_text="Last day (inclusive); defaults to `startDate`; ≤ 14 days.")
    areaId = IntegerFilter("id")
    sport = AnySportFilter("sports", help_text="Comma list; areas offering any of them.")
    minDurationMinutes = IntegerParameter()
