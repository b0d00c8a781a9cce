"""Ticket sales on real parallel PostgreSQL connections never exceed a ticket's quantity or the event's capacity:
every sale is serialised on the Event row lock."""

import pytest

from apps.bookings.models import Booking
from apps.contacts.models import Contact
from tests.concurrency import race
from tests.events.factories import make_event

URL = "/v1/platform/events"


def _buyers(organization, n):
    return [Contact.objects.create(organization=organization, first_name=f"Buyer {i}") for i in range(n)]


def _book(client, event, contact, ticket):
    return client.post(f"{URL}/{event.id}/bookings", {"contactId": contact.id, "ticketId": ticket.id}, format="json")


@pytest.mark.django_db(transaction=True)
def test_two_buyers_for_the_last_ticket(organization, club, client_for):
    event = make_event(organization, club, tickets=[("Last one", "10", 1)])
    ticket = event.tickets.get()
    buyers = _buyers(organization, 2)
    clients = [client_for("*") for _ in buyers]  # one key each: the rate limits stay out of the way
    results = race([lambda c=c, b=b: _book(c, event, b, ticket) for c, b in zip(clients, buyers, strict=True)])
    assert sorted(r.status_code for r in results) == [201, 409], [r.content[:200] for r in results]
    refused = next(r for r in results if r.status_code == 409).json()
    assert (refused["code"], refused["details"]) == ("SOLD_OUT", {"ticketId": ticket.id})
    assert Booking.objects.filter(event=event).count() == 1


@pytest.mark.django_db(transaction=True)
def test_twelve_buyers_on_two_ticket_types_never_exceed_the_capacity(organization, club, client_for):
    event = make_event(organization, club, capacity=5, tickets=[("Adult", "10", 3), ("Child", "0", None)])
    adult, child = event.tickets.order_by("position")
    buyers = _buyers(organization, 12)
    clients = [client_for("*") for _ in buyers]
    tickets = [adult, child] * 6
    results = race(
        [lambda c=c, b=b, t=t: _book(c, event, b, t) for c, b, t in zip(clients, buyers, tickets, strict=True)]
    )
    statuses = sorted(r.status_code for r in results)
    assert statuses == [201] * 5 + [409] * 7, [(r.status_code, r.content[:200]) for r in results]
    assert {r.json()["code"] for r in results if r.status_code == 409} == {"SOLD_OUT"}
    sold = Booking.objects.filter(event=event, status="confirmed")
    assert sold.count() == 5
    assert sold.filter(event_ticket=adult).count() <= 3
