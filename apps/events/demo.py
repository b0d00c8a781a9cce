"""Demo events: a published padel cup with two ticket types and tickets sold (one of them free), and a draft
social night. Booked through the services, so the sales carry their charges like any API booking."""

import datetime as dt
from decimal import Decimal

from django.utils import timezone

from apps.bookings.models import Booking
from apps.contacts.choices import ContactStatus

from . import services
from .choices import EventStatus
from .models import Event

CUP = {
    "name": "Summer Padel Cup",
    "description": "A one-day doubles tournament with prizes and a barbecue.",
    "capacity": 32,
    "translations": {"es": {"name": "Copa de Pádel de Verano", "description": "Torneo de dobles de un día."}},
    "tickets": [
        {"name": "Player", "price_before_tax": Decimal("25.00"), "quantity": 24},
        {"name": "Junior (under 14)", "price_before_tax": Decimal("0"), "quantity": 8},
    ],
}
SOCIAL = {
    "name": "Members' social night",
    "description": "Drinks and mixed doubles.",
    "capacity": None,
    "translations": {},
    "tickets": [{"name": "Entry", "price_before_tax": Decimal("5.00"), "quantity": None}],
}


def _event(organization, club, spec, start, status):
    event = Event.objects.filter(organization=organization, name=spec["name"]).order_by("id").first()
    if event is not None:
        return event
    event = services.create_event(
        organization,
        {
            "club": club,
            "name": spec["name"],
            "description": spec["description"],
            "capacity": spec["capacity"],
            "start_time": start,
            "end_time": start + dt.timedelta(hours=6),
            "tickets": spec["tickets"],
        },
    )
    Event.objects.filter(pk=event.pk).update(translations=spec["translations"])
    if status == EventStatus.PUBLISHED:
        event = services.publish_event(event)
    return event


def seed(organization, ctx: dict) -> None:
    """Idempotent. Puts `ctx["events"]` ({name: Event})."""
    clubs = ctx.get("clubs") or []
    if not clubs:
        return
    club = clubs[0]
    soon = (timezone.now() + dt.timedelta(days=21)).replace(hour=8, minute=0, second=0, microsecond=0)
    cup = _event(organization, club, CUP, soon, EventStatus.PUBLISHED)
    social = _event(organization, club, SOCIAL, soon + dt.timedelta(days=14, hours=10), EventStatus.DRAFT)
    contacts = [c for c in ctx.get("contacts") or [] if c.status == ContactStatus.ACTIVE]
    player, junior = cup.tickets.order_by("position")
    if cup.status == EventStatus.PUBLISHED and not Booking.objects.filter(event=cup).exists():
        for index, contact in enumerate(contacts[:4]):  # the cup has no booking yet: none of theirs either
            ticket = junior if index == 3 else player
            services.book_event(
                organization=organization, event=cup, contact=contact, ticket_id=ticket.pk, source="admin"
            )
    ctx["events"] = {cup.name: cup, social.name: social}
