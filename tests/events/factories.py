"""Events for tests, written straight to the database (the API is what the tests exercise)."""

import datetime as dt
from decimal import Decimal

from django.utils import timezone

from apps.bookings.choices import BookingStatus, BookingType
from apps.bookings.models import Booking
from apps.events.choices import EventStatus
from apps.events.models import Event, EventTicket


def make_event(
    organization,
    club,
    *,
    name="Summer Cup",
    status=EventStatus.PUBLISHED,
    capacity=None,
    tickets=None,
    days=10,
    slug=None,
):
    start = (timezone.now() + dt.timedelta(days=days)).replace(microsecond=0)
    event = Event.objects.create(
        organization=organization,
        club=club,
        name=name,
        slug=slug or f"{name.lower().replace(' ', '-')}-{Event.objects.count() + 1}",
        start_time=start,
        end_time=start + dt.timedelta(hours=3),
        status=status,
        capacity=capacity,
    )
    for position, (ticket_name, price, quantity) in enumerate(tickets or [("General", "10.00", None)]):
        EventTicket.objects.create(
            organization=organization,
            event=event,
            name=ticket_name,
            price_before_tax=Decimal(price),
            quantity=quantity,
            position=position,
        )
    return event


def sell(event, ticket, contact, status=BookingStatus.CONFIRMED):
    """A booking on `ticket` as the service would write it (no charge, no event)."""
    return Booking.objects.create(
        organization_id=event.organization_id,
        type=BookingType.EVENT,
        status=status,
        club_id=event.club_id,
        event=event,
        event_ticket=ticket,
        contact=contact,
        start_time=event.start_time,
        end_time=event.end_time,
        price_before_tax=ticket.price_before_tax,
    )
