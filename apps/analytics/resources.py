"""The analytics summary shape: totals only, never a person or a sale."""

import datetime as dt
from typing import Annotated, TypedDict

from apps.api.resources import Describe


class AnalyticsTotals(TypedDict):
    bookings: Annotated[int, Describe("Bookings of every type starting in the period, cancelled ones left out.")]
    classBookings: Annotated[int, Describe("Of `bookings`, the class bookings.")]
    checkins: Annotated[int, Describe("Check-ins recorded in the period (bookings and walk-ins).")]
    newContacts: Annotated[
        int,
        Describe("Contacts created in the period; contacts belong to the organization, so `clubId` does not apply."),
    ]
    newMemberships: Annotated[int, Describe("Memberships whose `startDate` is in the period.")]
    activeMemberships: Annotated[
        int,
        Describe(
            "Memberships held on at least one day of the period: started by its last day, not ended (`endDate`, "
            "`cancelAt`) before its first day, and not cancelled immediately before it began. Paused ones count."
        ),
    ]
    cancelledMemberships: Annotated[int, Describe("Memberships whose cancellation was recorded in the period.")]
    revenue: Annotated[float, Describe("`totals.gross` of the revenue report over the same period and club.")]
    refunds: Annotated[float, Describe("`totals.refunded` of the revenue report over the same period and club.")]
    classOccupancyRate: Annotated[
        float | None,
        Describe(
            "Seats taken (pending, confirmed or checked-in class bookings) over seats offered, in classes starting in "
            "the period that are not cancelled and have a capacity; 0..1 with 4 decimals, null when no such class."
        ),
    ]


class AnalyticsSummary(TypedDict):
    startDate: Annotated[dt.date, Describe("First day (inclusive).")]
    endDate: Annotated[dt.date, Describe("Last day (inclusive).")]
    clubId: Annotated[int | None, Describe("The club the totals are restricted to, null for the organization.")]
    totals: AnalyticsTotals
