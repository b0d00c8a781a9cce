"""Event attendance is a Booking (`type: event`): booked through POST /events/{id}/bookings, priced by its ticket
with its charge, listed on the event and in /bookings?eventId=, freed by /bookings/{id}/cancel, and cancelled
with the event (in the same transaction, attendees told when asked)."""

import datetime as dt
from decimal import Decimal

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.bookings.models import Booking
from apps.contacts.models import Contact
from apps.domain_events.models import DomainEvent
from apps.events import services
from apps.events.models import Event, EventTicket
from apps.invoices.models import Invoice
from apps.notifications.models import Notification
from apps.transactions.models import Transaction
from tests.events.factories import make_event, sell

URL = "/v1/platform/events"


@pytest.fixture
def event(organization, club):
    return make_event(organization, club, capacity=3, tickets=[("Adult", "10.00", 2), ("Child", "0", None)])


@pytest.fixture
def tickets(event):
    return list(event.tickets.order_by("position"))


def _contact(organization, name, email=None):
    return Contact.objects.create(organization=organization, first_name=name, email=email)


def book(api, event, contact, ticket, **extra):
    return api.post(
        f"{URL}/{event.id}/bookings", {"contactId": contact.id, "ticketId": ticket.id, **extra}, format="json"
    )


def test_booking_a_priced_ticket(api, organization, event, tickets, contact):
    response = book(api, event, contact, tickets[0], notes="Left-handed")
    assert response.status_code == 201, response.content
    body = response.json()
    assert response["Location"] == f"/v1/platform/bookings/{body['id']}"
    assert (body["type"], body["status"], body["eventId"], body["clubId"]) == (
        "event",
        "confirmed",
        event.id,
        event.club_id,
    )
    assert (body["classId"], body["areaId"], body["contactId"], body["notes"]) == (
        None,
        None,
        contact.id,
        "Left-handed",
    )
    assert (body["priceBeforeTax"], body["price"]) == (10.0, 12.1)
    assert body["payment"]["status"] == "unpaid" and body["payment"]["amount"] == 12.1
    assert body["contactEmail"] == "ana@example.com"  # the full-access key holds contacts:read
    start = event.start_time.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")
    assert body["startTime"] == start and body["durationMinutes"] == 180
    charge = Transaction.objects.get(booking_id=body["id"])
    assert (charge.source_type, charge.amount, charge.tax_amount, charge.payment_status) == (
        "event",
        Decimal("12.1"),
        Decimal("2.1"),
        "unpaid",
    )
    assert charge.description == "Summer Cup: Adult"
    created = DomainEvent.objects.get(type="booking.created")
    assert created.data["id"] == body["id"] and created.data["contactEmail"] == body["contactEmail"]
    assert DomainEvent.objects.filter(type="transaction.created").count() == 1
    invoice = Invoice.objects.get(organization=organization)
    assert charge.invoice_id == invoice.id
    assert (invoice.status, invoice.contact_id, invoice.total, invoice.tax, invoice.amount_paid) == (
        "open",
        contact.id,
        Decimal("12.1"),
        Decimal("2.1"),
        0,
    )
    assert [(line.description, line.transaction_id) for line in invoice.lines.all()] == [
        ("Summer Cup: Adult", charge.id)
    ]
    assert DomainEvent.objects.filter(type="invoice.created").count() == 1
    assert api.get("/v1/platform/transactions", {"bookingId": body["id"]}).json()["data"][0]["invoiceId"] == invoice.id
    read = api.get(f"{URL}/{event.id}").json()
    assert read["soldCount"] == 1 and [t["soldCount"] for t in read["tickets"]] == [1, 0]


def test_a_free_ticket_is_no_charge_without_a_transaction(api, organization, event, tickets, contact):
    response = book(api, event, contact, tickets[1])
    assert response.status_code == 201
    assert response.json()["payment"]["status"] == "no_charge" and response.json()["price"] == 0.0
    assert not Transaction.objects.exists() and not Invoice.objects.exists()


def test_quantity_is_one_person_per_call(api, event, tickets, contact):
    response = book(api, event, contact, tickets[0], quantity=2)
    assert response.status_code == 400 and "quantity" in response.json()["details"]["fields"]
    assert book(api, event, contact, tickets[0], quantity=1).status_code == 201


def test_ticket_sold_out_then_event_sold_out(api, organization, event, tickets):
    adult, child = tickets
    for name in ("A", "B"):
        assert book(api, event, _contact(organization, name), adult).status_code == 201
    response = book(api, event, _contact(organization, "C"), adult)
    assert response.status_code == 409
    assert (response.json()["code"], response.json()["details"]) == ("SOLD_OUT", {"ticketId": adult.id})
    assert book(api, event, _contact(organization, "D"), child).status_code == 201  # the third of capacity 3
    response = book(api, event, _contact(organization, "E"), child)
    assert (response.status_code, response.json()["code"], response.json()["details"]) == (
        409,
        "SOLD_OUT",
        {"ticketId": child.id},
    )
    assert Booking.objects.filter(event=event).count() == 3


def test_cancelling_a_booking_frees_its_seat(api, organization, event, tickets):
    adult = tickets[0]
    first = book(api, event, _contact(organization, "A"), adult).json()
    book(api, event, _contact(organization, "B"), adult)
    assert book(api, event, _contact(organization, "C"), adult).json()["code"] == "SOLD_OUT"
    cancelled = api.post(f"/v1/platform/bookings/{first['id']}/cancel", {"reason": "Ill"}, format="json")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    charge = Transaction.objects.get(booking_id=first["id"])
    assert charge.payment_status == "void"
    assert Invoice.objects.get(pk=charge.invoice_id).status == "void"  # the invoice follows its only charge
    assert book(api, event, _contact(organization, "C"), adult).status_code == 201
    assert api.get(f"{URL}/{event.id}").json()["tickets"][0]["soldCount"] == 2


def test_cancelling_an_event_booking_with_notice_names_the_event(
    api, event, tickets, contact, django_capture_on_commit_callbacks
):
    booking = book(api, event, contact, tickets[1]).json()
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"/v1/platform/bookings/{booking['id']}/cancel", {"notifyCustomer": True}, format="json")
    assert response.status_code == 200
    [notice] = [m for m in mail.outbox if m.to == ["ana@example.com"]]
    assert "Your booking of Summer Cup on " in notice.body


def test_already_booked(api, event, tickets, contact):
    first = book(api, event, contact, tickets[0]).json()
    response = book(api, event, contact, tickets[1])
    assert response.status_code == 409
    assert (response.json()["code"], response.json()["details"]) == ("ALREADY_BOOKED", {"bookingId": first["id"]})
    api.post(f"/v1/platform/bookings/{first['id']}/cancel")
    assert book(api, event, contact, tickets[1]).status_code == 201


@pytest.mark.parametrize("status", ["draft", "cancelled"])
def test_only_a_published_event_is_bookable(api, event, tickets, contact, status):
    Event.objects.filter(pk=event.pk).update(status=status)
    response = book(api, event, contact, tickets[0])
    assert response.status_code == 409
    assert (response.json()["code"], response.json()["details"]) == (
        "INVALID_STATE_TRANSITION",
        {"currentStatus": status},
    )


def test_outside_the_sales_window_is_409_conflict(api, event, tickets, contact):
    now = timezone.now()
    adult, child = tickets
    EventTicket.objects.filter(pk=adult.pk).update(sales_start=now + dt.timedelta(days=1))
    EventTicket.objects.filter(pk=child.pk).update(sales_end=now - dt.timedelta(minutes=1))
    for ticket in (adult, child):
        response = book(api, event, contact, ticket)
        assert response.status_code == 409
        assert response.json()["code"] == "CONFLICT" and response.json()["details"]["ticketId"] == ticket.id
    EventTicket.objects.filter(pk=adult.pk).update(sales_start=now - dt.timedelta(days=1))
    assert book(api, event, contact, adult).status_code == 201


def test_bad_bodies_are_400(api, organization, event, tickets, contact, other_organization):
    other = make_event(organization, event.club, name="Other")
    foreign = _contact(other_organization, "Zed")
    archived = _contact(organization, "Old")
    Contact.objects.filter(pk=archived.pk).update(status="archived")
    cases = [
        ({"contactId": contact.id}, "ticketId"),
        ({"ticketId": tickets[0].id}, "contactId"),
        ({"contactId": foreign.id, "ticketId": tickets[0].id}, "contactId"),
        ({"contactId": archived.id, "ticketId": tickets[0].id}, "contactId"),
        ({"contactId": contact.id, "ticketId": other.tickets.get().id}, "ticketId"),
        ({"contactId": contact.id, "ticketId": "1"}, "ticketId"),
    ]
    for body, field in cases:
        response = api.post(f"{URL}/{event.id}/bookings", body, format="json")
        assert response.status_code == 400, (body, response.content)
        assert field in response.json()["details"]["fields"], body
    assert not Booking.objects.exists()


def test_event_bookings_are_listed_on_the_event_and_in_bookings(client_for, api, organization, event, tickets):
    a = book(api, event, _contact(organization, "A", "a@example.com"), tickets[0]).json()
    b = book(api, event, _contact(organization, "B"), tickets[1]).json()
    api.post(f"/v1/platform/bookings/{b['id']}/cancel")
    other = make_event(organization, event.club, name="Other")
    book(api, other, _contact(organization, "C"), other.tickets.get())
    reader = client_for("bookings:read")
    listed = reader.get(f"{URL}/{event.id}/bookings").json()
    assert [row["id"] for row in listed["data"]] == [a["id"], b["id"]] and listed["total"] == 2
    assert listed["data"][0]["contactEmail"] is None  # no contacts:read
    assert [row["id"] for row in reader.get(f"{URL}/{event.id}/bookings", {"status": "cancelled"}).json()["data"]] == [
        b["id"]
    ]
    in_bookings = reader.get("/v1/platform/bookings", {"eventId": event.id}).json()["data"]
    assert [row["id"] for row in in_bookings] == [a["id"], b["id"]]
    assert [row["id"] for row in reader.get("/v1/platform/bookings", {"type": "event"}).json()["data"]] != []
    assert client_for("events:read").get(f"{URL}/{event.id}/bookings").status_code == 403


def test_event_bookings_list_costs_the_same_for_one_or_many(api, organization, event, tickets):
    sell(event, tickets[0], _contact(organization, "A"))
    api.get(f"{URL}/{event.id}/bookings")
    with CaptureQueriesContext(connection) as one:
        api.get(f"{URL}/{event.id}/bookings", {"limit": 200})
    for i in range(60):
        sell(event, tickets[1], _contact(organization, f"G{i}"))
    with CaptureQueriesContext(connection) as many:
        response = api.get(f"{URL}/{event.id}/bookings", {"limit": 200})
    assert response.json()["total"] == 61
    assert len(many) == len(one)


# --- cancelling the event ------------------------------------------------------------------------------------------


def test_cancelling_an_event_cancels_its_attendees_bookings(
    api, organization, event, tickets, django_capture_on_commit_callbacks
):
    ana = _contact(organization, "Ana", "ana.event@example.com")
    bo = _contact(organization, "Bo", "bo@example.com")
    cy = _contact(organization, "Cy", "cy@example.com")
    open_ids = [book(api, event, person, tickets[1]).json()["id"] for person in (ana, bo)]
    checked_in = sell(event, tickets[0], cy, status="checked_in")
    other = make_event(organization, event.club, name="Other")
    untouched = sell(other, other.tickets.get(), ana)
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"{URL}/{event.id}/cancel", {"reason": "Storm", "notifyCustomer": True}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "cancelled" and response.json()["soldCount"] == 1  # the checked-in one
    rows = Booking.objects.filter(event=event)
    assert rows.filter(status="cancelled").count() == 2
    assert sorted(rows.filter(status="cancelled").values_list("id", flat=True)) == sorted(open_ids)
    assert set(rows.filter(status="cancelled").values_list("cancellation_reason", flat=True)) == {"Storm"}
    assert rows.get(pk=checked_in.pk).status == "checked_in"
    untouched.refresh_from_db()
    assert untouched.status == "confirmed"
    assert DomainEvent.objects.filter(type="booking.cancelled").count() == 2
    assert DomainEvent.objects.get(type="event.cancelled").data["status"] == "cancelled"
    told = sorted(m.to[0] for m in mail.outbox)
    assert told == ["ana.event@example.com", "bo@example.com"]
    assert "Storm" in mail.outbox[0].body and "Summer Cup" in mail.outbox[0].subject
    assert set(Notification.objects.values_list("kind", flat=True)) == {"event.cancelled"}
    assert Notification.objects.count() == 2


def test_without_notify_nobody_is_told(api, organization, event, tickets, contact, django_capture_on_commit_callbacks):
    book(api, event, contact, tickets[1])
    with django_capture_on_commit_callbacks(execute=True):
        assert api.post(f"{URL}/{event.id}/cancel").status_code == 200
    assert mail.outbox == [] and not Notification.objects.exists()
    assert Booking.objects.get(event=event).cancellation_reason == "The event was cancelled."


def test_the_cascade_is_one_transaction(api, organization, event, tickets, monkeypatch):
    """A failure while cancelling the attendees' bookings leaves the event and every booking as they were."""
    for name in ("A", "B", "C"):
        book(api, event, _contact(organization, name), tickets[1])
    calls = []
    real_cancel = services.cancel_booking

    def cancel_then_fail(booking, **kwargs):
        calls.append(booking.pk)
        if len(calls) == 3:
            raise RuntimeError("database went away")
        return real_cancel(booking, **kwargs)

    monkeypatch.setattr(services, "cancel_booking", cancel_then_fail)
    with pytest.raises(RuntimeError):
        services.cancel_event(event)
    event.refresh_from_db()
    assert event.status == "published"
    assert Booking.objects.filter(event=event, status="confirmed").count() == 3
    assert not DomainEvent.objects.filter(type__in=["booking.cancelled", "event.cancelled"]).exists()
