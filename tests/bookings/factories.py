"""Small builders for booking tests and contract cases (any organization)."""

import datetime as dt
import itertools

from django.utils import timezone

from apps.bookings.models import Booking, Player
from apps.clubs.models import Area, AreaType, Club
from tests.factories import make_contact as contact_for

_seq = itertools.count(1)


def club_for(organization):
    club, _ = Club.objects.get_or_create(
        organization=organization,
        slug=f"club-{organization.pk}",
        defaults={"name": "Factory Club", "timezone": "Europe/Madrid"},
    )
    return club


def area_for(organization, max_players=4, **fields):
    club = club_for(organization)
    area_type, _ = AreaType.objects.get_or_create(
        organization=organization, slug=f"court-{max_players}", defaults={"name": "Court", "max_players": max_players}
    )
    fields.setdefault("name", f"Court {next(_seq)}")
    fields.setdefault("hourly_rate", "20.00")
    return Area.objects.create(organization=organization, club=club, area_type=area_type, **fields)


def area_booking(organization, area=None, contact=None, start=None, hours=1, **fields):
    area = area or area_for(organization)
    contact = contact or contact_for(organization)
    start = start or (timezone.now() + dt.timedelta(days=2, hours=next(_seq))).replace(microsecond=0)
    booking = Booking.objects.create(
        organization=organization,
        type="area",
        club_id=area.club_id,
        area=area,
        contact=contact,
        start_time=start,
        end_time=start + dt.timedelta(hours=hours),
        price_before_tax=fields.pop("price_before_tax", "20.00"),
        payment_amount=fields.pop("payment_amount", "24.20"),
        **fields,
    )
    Player.objects.create(
        organization=organization,
        booking=booking,
        contact=contact,
        name=contact.name,
        email=contact.email,
        is_organizer=True,
    )
    return booking
