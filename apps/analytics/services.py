"""Analytics totals over a period: one aggregate query per kind of row (seven at most), whatever the data size.

Nothing here reads a person or a sale: every query is a COUNT or a SUM. What each total means is documented on
its shape (`apps/analytics/resources.py`) and in docs/decisions/reports.md.
"""

from django.db.models import Count, Q, Sum

from apps.bookings.choices import ACTIVE_BOOKING_STATUSES, BookingStatus, BookingType
from apps.bookings.models import Booking, CheckIn
from apps.classes.choices import ClassStatus
from apps.classes.models import ClassOccurrence
from apps.clubs.report_period import ReportPeriod
from apps.contacts.models import Contact
from apps.memberships.models import Membership
from apps.transactions.reports import revenue_and_refunds

OCCUPANCY_DECIMALS = 4


def _club(queryset, period: ReportPeriod, field: str = "club_id"):
    return queryset if period.club_id is None else queryset.filter(**{field: period.club_id})


def _in_period(field: str, period: ReportPeriod) -> Q:
    return Q(**{f"{field}__gte": period.lower, f"{field}__lt": period.upper})


def _bookings(organization, period: ReportPeriod) -> dict:
    queryset = Booking.objects.filter(_in_period("start_time", period), organization=organization).exclude(
        status=BookingStatus.CANCELLED
    )
    return _club(queryset, period).aggregate(
        bookings=Count("id"), classBookings=Count("id", filter=Q(type=BookingType.CLASS))
    )


def _memberships(organization, period: ReportPeriod) -> dict:
    held = (
        Q(start_date__lte=period.end)
        & (Q(end_date__isnull=True) | Q(end_date__gte=period.start))
        & (Q(cancel_at__isnull=True) | Q(cancel_at__gte=period.start))
        & (Q(cancelled_at__isnull=True) | Q(cancel_at__isnull=False) | Q(cancelled_at__gte=period.lower))
    )
    queryset = _club(Membership.objects.filter(organization=organization), period)
    return queryset.aggregate(
        newMemberships=Count("id", filter=Q(start_date__gte=period.start, start_date__lte=period.end)),
        activeMemberships=Count("id", filter=held),
        cancelledMemberships=Count("id", filter=_in_period("cancelled_at", period)),
    )


def _class_occupancy(organization, period: ReportPeriod) -> float | None:
    classes = _club(
        ClassOccurrence.objects.filter(
            _in_period("start_time", period),
            organization=organization,
            status=ClassStatus.ACTIVE,
            max_capacity__gt=0,
        ),
        period,
    )
    offered = classes.aggregate(offered=Sum("max_capacity"))["offered"]
    if not offered:
        return None
    taken = Booking.objects.filter(
        organization=organization,
        class_occurrence__in=classes.values("id"),
        type=BookingType.CLASS,
        status__in=ACTIVE_BOOKING_STATUSES,
    ).count()
    return round(taken / offered, OCCUPANCY_DECIMALS)


def analytics_summary(organization, period: ReportPeriod) -> dict:
    """The body of `GET /analytics/summary`."""
    checkins = _club(
        CheckIn.objects.filter(_in_period("checked_in_at", period), organization=organization), period
    ).count()
    new_contacts = Contact.objects.filter(_in_period("created_at", period), organization=organization).count()
    revenue, refunds = revenue_and_refunds(organization, period)
    return {
        "startDate": period.start,
        "endDate": period.end,
        "clubId": period.club_id,
        "totals": {
            **_bookings(organization, period),
            "checkins": checkins,
            "newContacts": new_contacts,
            **_memberships(organization, period),
            "revenue": revenue,
            "refunds": refunds,
            "classOccupancyRate": _class_occupancy(organization, period),
        },
    }
