"""Event and event ticket shapes. A page of events is two queries: the events with their sold counts (a subquery
column), then every ticket of the page with its own sold count."""

import datetime as dt
from collections import defaultdict
from typing import Annotated, TypedDict

from django.db.models import Count, IntegerField, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce

from apps.api.presenters import number
from apps.api.resources import Describe, PresentContext, Resource
from apps.bookings.choices import ACTIVE_BOOKING_STATUSES
from apps.bookings.models import Booking
from apps.classes.choices import Visibility

from . import models
from .choices import EventStatus

SOLD_HELP = "Active bookings (pending, confirmed, checked in); a cancelled booking frees its ticket."


def sold_count(field: str):
    """The active bookings whose `field` is the outer row: a correlated COUNT subquery, 0 when none."""
    counted = (
        Booking.objects.filter(**{field: OuterRef("pk")}, status__in=ACTIVE_BOOKING_STATUSES)
        .order_by()
        .values(field)
        .annotate(n=Count("id"))
        .values("n")
    )
    return Coalesce(Subquery(counted, output_field=IntegerField()), Value(0))


class EventTicket(TypedDict):
    id: int
    name: str
    priceBeforeTax: float
    price: Annotated[float, Describe("Tax-inclusive, computed.")]
    quantity: Annotated[int | None, Describe("Tickets of this type for sale; null: only `capacity` limits them.")]
    soldCount: Annotated[int, Describe(SOLD_HELP)]
    salesStart: Annotated[dt.datetime | None, Describe("Bookable from; null: as soon as the event is published.")]
    salesEnd: Annotated[dt.datetime | None, Describe("Bookable until (exclusive); null: no end.")]


class Event(TypedDict):
    id: int
    name: str
    slug: str
    description: str | None
    clubId: int
    startTime: dt.datetime
    endTime: dt.datetime
    status: EventStatus
    visibility: Visibility
    images: list[str]
    capacity: Annotated[int | None, Describe("Attendees at most, every ticket type together; null: uncapped.")]
    tickets: list[EventTicket]
    soldCount: Annotated[int, Describe(SOLD_HELP)]
    translations: Annotated[dict, Describe("{locale: {name, description}}; read-only.")]
    publishedAt: dt.datetime | None
    cancelledAt: dt.datetime | None
    createdAt: dt.datetime
    updatedAt: dt.datetime


TICKET_COLUMNS = (
    "id",
    "event_id",
    "name",
    "price_before_tax",
    "quantity",
    "sales_start",
    "sales_end",
    "sold_count",
)


def present_ticket(row: dict, ctx: PresentContext) -> EventTicket:
    return {
        "id": row["id"],
        "name": row["name"],
        "priceBeforeTax": number(row["price_before_tax"]),
        "price": number(ctx.organization.tax_inclusive(row["price_before_tax"])),
        "quantity": row["quantity"],
        "soldCount": row["sold_count"],
        "salesStart": row["sales_start"],
        "salesEnd": row["sales_end"],
    }


class EventResource(Resource):
    shape = Event
    model = models.Event
    translated = ("name", "description")
    columns = ("sold_count",)

    def annotate(self, queryset):
        return queryset.annotate(sold_count=sold_count("event_id"))

    def load(self, rows, ctx: PresentContext) -> None:
        """Every ticket of the page's events (in position order) with its sold count, in one query."""
        by_event = defaultdict(list)
        event_ids = [row["id"] for row in rows]
        if event_ids:
            tickets = (
                models.EventTicket.objects.filter(event_id__in=event_ids)
                .annotate(sold_count=sold_count("event_ticket_id"))
                .order_by("event_id", "position", "id")
                .values(*TICKET_COLUMNS)
            )
            for ticket in tickets:
                by_event[ticket["event_id"]].append(present_ticket(ticket, ctx))
        ctx.memo["event.tickets"] = by_event

    def present(self, row: dict, ctx: PresentContext) -> Event:
        return self.body(
            row,
            ctx,
            tickets=ctx.memo["event.tickets"].get(row["id"], []),
        )


EVENT = EventResource()
