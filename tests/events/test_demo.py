"""The demo data seeds a published event with tickets sold (one free) and a draft one, idempotently."""

from apps.bookings.models import Booking
from apps.contacts.models import Contact
from apps.events import demo
from apps.events.models import Event
from apps.transactions.models import Transaction


def test_seed_is_idempotent_and_sells_tickets(organization, club, api):
    contacts = [Contact.objects.create(organization=organization, first_name=f"Demo {i}") for i in range(5)]
    ctx = {"clubs": [club], "contacts": contacts}
    demo.seed(organization, ctx)
    assert Booking.objects.filter(event__organization=organization).count() == 4  # sold on the first run
    demo.seed(organization, dict(ctx))
    assert Event.objects.filter(organization=organization).count() == 2
    cup = ctx["events"]["Summer Padel Cup"]
    listed = api.get("/v1/platform/events", {"status": "published", "locale": "es"}).json()["data"]
    assert [(e["id"], e["name"], e["soldCount"]) for e in listed] == [(cup.id, "Copa de Pádel de Verano", 4)]
    assert [t["soldCount"] for t in listed[0]["tickets"]] == [3, 1]
    assert Booking.objects.filter(event=cup, type="event").count() == 4
    assert Transaction.objects.filter(booking__event=cup, source_type="event").count() == 3  # the junior is free
    assert api.get("/v1/platform/events", {"status": "draft"}).json()["total"] == 1
