import itertools

from django.utils import timezone

from apps.bookings.models import Player
from apps.organizations.models import ApiKey
from tests.harness import EndpointCase

from .factories import area_booking, area_for, contact_for

_channel_ids = itertools.count(1)


def warm_credentials(organization):
    """The first request of a fresh key also writes `last_used_at`; mark keys used so both measured requests of
    the query-count contract run the same queries."""
    ApiKey.objects.filter(organization=organization).update(last_used_at=timezone.now())


def _booking(organization):
    return {"id": area_booking(organization).id}


def _bookings(organization, n):
    warm_credentials(organization)
    area = area_for(organization)
    contact = contact_for(organization)
    for _ in range(n):
        booking = area_booking(organization, area=area, contact=contact)
        Player.objects.create(organization=organization, booking=booking, name="Guest", email="g@example.com")


def _players_path(organization):
    return {"id": area_booking(organization).id}


def _players(organization, n):
    warm_credentials(organization)
    booking = Player.objects.filter(organization=organization).order_by("-id").first().booking
    Player.objects.bulk_create(Player(organization=organization, booking=booking, name=f"Guest {i}") for i in range(n))


def _player(organization):
    booking = area_booking(organization)
    player = Player.objects.create(organization=organization, booking=booking, name="Guest")
    return {"id": booking.id, "playerId": player.id}


def _channel(organization):
    external_id = f"ext-{next(_channel_ids)}"
    booking = area_booking(organization, source="channel", external_source="playtomic", external_id=external_id)
    return {"source": booking.external_source, "external_id": booking.external_id}


CHANNEL = "/v1/platform/channel-bookings/{source}/{external_id}"

CASES = [
    EndpointCase("GET", "/v1/platform/bookings", "bookings:read", list_rows=_bookings),
    EndpointCase("GET", "/v1/platform/bookings/{id}", "bookings:read", setup=_booking),
    EndpointCase("POST", "/v1/platform/bookings", "bookings:write", body={}),
    EndpointCase("PATCH", "/v1/platform/bookings/{id}", "bookings:write", setup=_booking, body={"notes": "x"}),
    EndpointCase("POST", "/v1/platform/bookings/{id}/cancel", "bookings:write", setup=_booking),
    EndpointCase("GET", "/v1/platform/bookings/{id}/players", "bookings:read", setup=_players_path, list_rows=_players),
    EndpointCase(
        "POST", "/v1/platform/bookings/{id}/players", "bookings:write", setup=_players_path, body={"name": "X"}
    ),
    EndpointCase("DELETE", "/v1/platform/bookings/{id}/players/{playerId}", "bookings:write", setup=_player),
    EndpointCase("GET", CHANNEL, "bookings:read", setup=_channel),
    EndpointCase("POST", "/v1/platform/channel-bookings", "bookings:write", body={}),
    EndpointCase("POST", CHANNEL + "/cancel", "bookings:write", setup=_channel),
    EndpointCase(
        "POST",
        CHANNEL + "/payment",
        "bookings:write",
        setup=_channel,
        body={"payment": {"paidAmount": 1, "reference": "r"}},
    ),
]
