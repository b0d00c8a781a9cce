"""Events, their ticket types, and booking one person onto an event. The REST views and the demo data go through
these.

Tickets are sold under a row lock on the Event (`SELECT ... FOR UPDATE`): every booking of an event, whatever the
ticket type, is serialised on that one row, so neither the event's `capacity` nor a ticket's `quantity` is ever
exceeded, however many requests race for the last seat. Updates and cancellation take the same lock, so a
capacity lowered concurrently with a sale is checked against the sold count that sale left.

Lock order: event, then its bookings (cancelling an event cancels them one by one through the bookings service,
which locks each booking). Nothing locks an event after a booking.
"""

from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from apps.api.exceptions import Conflict, InvalidStateTransition, ResourceInUse, ValidationFailed
from apps.api.resources import camel_case
from apps.api.validation import ensure_ends_after_start
from apps.bookings.choices import (
    ACTIVE_BOOKING_STATUSES,
    OPEN_BOOKING_STATUSES,
    BookingStatus,
    BookingType,
    EntranceMethod,
    PaymentStatus,
)
from apps.bookings.events import emit_booking
from apps.bookings.models import Booking
from apps.bookings.services import cancel_booking
from apps.domain_events.services import emit
from apps.invoices.services import issue_invoice
from apps.kernel import clock, slugs
from apps.kernel.records import copy_name
from apps.notifications.services import notify_contacts
from apps.transactions.booking_charges import record_booking_charge
from apps.transactions.choices import TransactionSourceType

from .choices import OPEN_EVENT_STATUSES, EventStatus
from .models import Event, EventTicket
from .resources import EVENT

SLUG_MAX = Event._meta.get_field("slug").max_length
TICKET_FIELDS = ("name", "price_before_tax", "quantity", "sales_start", "sales_end")


def _api_name(name: str) -> str:
    """The body field of an event field a PATCH changed, for `changedFields` (`club` is `clubId`)."""
    return camel_case(f"{name}_id" if Event._meta.get_field(name).is_relation else name)


# --- errors ------------------------------------------------------------------------------------------------------


class SoldOut(Conflict):  # details: ticketId
    code = "SOLD_OUT"


class AlreadyBooked(Conflict):  # details: bookingId
    code = "ALREADY_BOOKED"
    default_message = "The contact already holds an active booking for this event."


# --- helpers -----------------------------------------------------------------------------------------------------


def lock_event(event_id) -> Event:
    """Reload and row-lock an event (inside `transaction.atomic()`)."""
    return Event.objects.select_for_update(of=("self",)).select_related("club", "organization").get(pk=event_id)


def _emit(event: Event, type_: str, changed_fields=None) -> None:
    organization = event.organization
    emit(organization, type_, lambda: EVENT.event_body(organization, event.pk), changed_fields)


def _sold(**filters) -> int:
    return Booking.objects.filter(status__in=ACTIVE_BOOKING_STATUSES, **filters).count()


def free_event_slug(organization_id, name: str) -> str:
    """The slug of `name`, suffixed `-2`, `-3`, ... when another event of the organization has it."""
    return slugs.free_slug(
        Event.objects.filter(organization_id=organization_id), name, fallback="event", max_length=SLUG_MAX
    )


def _insert(event: Event) -> Event:
    """Insert with a slug derived from the name; a slug taken by a concurrent insert is derived again."""
    try:
        slugs.save_with_unique_slug(
            event,
            lambda: Event.objects.filter(organization_id=event.organization_id),
            derive_from=event.name,
            fallback="event",
            max_length=SLUG_MAX,
            save=lambda: event.save(force_insert=True),
        )
    except slugs.NoFreeSlug:
        raise Conflict("Could not find a free slug for the event; try again.")
    return event


def _check_open(event: Event) -> None:
    if event.status not in OPEN_EVENT_STATUSES:
        raise InvalidStateTransition(event.status, "A cancelled event cannot be changed.")


# --- tickets -----------------------------------------------------------------------------------------------------


def _new_ticket(event: Event, position: int, item: dict) -> EventTicket:
    values = {name: item.get(name) for name in TICKET_FIELDS}
    return EventTicket(organization_id=event.organization_id, event=event, position=position, **values)


def _create_tickets(event: Event, items) -> None:
    EventTicket.objects.bulk_create([_new_ticket(event, position, item) for position, item in enumerate(items)])


def _replace_tickets(event: Event, items) -> bool:
    """`items` replaces the event's ticket types: an item with `id` updates that ticket, one without creates a
    ticket, a ticket left out is removed (409 when any booking was made on it). Returns whether anything changed."""
    current = {ticket.pk: ticket for ticket in event.tickets.select_for_update().order_by("position", "id")}
    errors = {}
    seen = set()
    for index, item in enumerate(items):
        ticket_id = item.get("id")
        if ticket_id is None:
            continue
        if ticket_id not in current:
            errors[f"tickets.{index}.id"] = ["Not a ticket of this event."]
        elif ticket_id in seen:
            errors[f"tickets.{index}.id"] = ["Listed twice."]
        seen.add(ticket_id)
    if errors:
        raise ValidationFailed(errors)
    removed = [ticket for pk, ticket in current.items() if pk not in seen]
    for ticket in removed:
        bookings = Booking.objects.filter(event_ticket=ticket).count()
        if bookings:
            raise Conflict(
                f"The ticket type `{ticket.name}` has sales and cannot be removed.",
                details={"ticketId": ticket.pk, "bookings": bookings},
            )
    changed = bool(removed)
    EventTicket.objects.filter(pk__in=[ticket.pk for ticket in removed]).delete()
    for position, item in enumerate(items):
        ticket_id = item.get("id")
        if ticket_id is None:
            _new_ticket(event, position, item).save()
            changed = True
            continue
        ticket = current[ticket_id]
        values = {name: item.get(name) for name in TICKET_FIELDS}
        values["position"] = position
        if values["quantity"] is not None:
            sold = _sold(event_ticket=ticket)
            if values["quantity"] < sold:
                raise Conflict(
                    f"{sold} ticket(s) of `{ticket.name}` are sold: the quantity cannot be lower.",
                    details={"ticketId": ticket.pk, "soldCount": sold},
                )
        differs = [name for name, value in values.items() if getattr(ticket, name) != value]
        if differs:
            for name in differs:
                setattr(ticket, name, values[name])
            ticket.save(update_fields=[*differs, "updated_at"])
            changed = True
    return changed


# --- events ------------------------------------------------------------------------------------------------------


@transaction.atomic
def create_event(organization, data: dict) -> Event:
    """A `draft` event with its ticket types. `data` holds model field names (validated input) and `tickets`."""
    data = dict(data)
    tickets = data.pop("tickets", None) or []
    ensure_ends_after_start(data["start_time"], data["end_time"])
    event = _insert(Event(organization=organization, status=EventStatus.DRAFT, **data))
    _create_tickets(event, tickets)
    _emit(event, "event.created")
    return event


@transaction.atomic
def update_event(event: Event, data: dict) -> Event:
    """Partial update of the locked row; `tickets` replaces the list (see `_replace_tickets`). Attendees' bookings
    follow a move of the event's times or club (`booking.updated`). A cancelled event: 409."""
    data = dict(data)
    event = lock_event(event.pk)
    _check_open(event)
    tickets = data.pop("tickets", None)
    start_time = data.get("start_time", event.start_time)
    end_time = data.get("end_time", event.end_time)
    ensure_ends_after_start(start_time, end_time)
    if data.get("capacity") is not None:
        sold = _sold(event=event)
        if data["capacity"] < sold:
            raise Conflict(f"{sold} ticket(s) are sold: the capacity cannot be lower.", details={"soldCount": sold})
    changed = [name for name, value in data.items() if getattr(event, name) != value]
    for name in changed:
        setattr(event, name, data[name])
    changed_fields = [_api_name(name) for name in changed]
    if tickets is not None:
        if _replace_tickets(event, tickets):
            changed_fields.append("tickets")
    if not changed_fields:
        return event
    event.save()
    _move_bookings(event, changed)
    _emit(event, "event.updated", changed_fields)
    return event


def _move_bookings(event: Event, changed: list[str]) -> None:
    """The event's open bookings carry its times and club: they follow a change of either."""
    moved = [name for name in ("club", "start_time", "end_time") if name in changed]
    if not moved:
        return
    bookings = list(
        Booking.objects.select_for_update(of=("self",))
        .filter(event=event, status__in=OPEN_BOOKING_STATUSES)
        .order_by("id")
    )
    for booking in bookings:
        booking.club_id, booking.start_time, booking.end_time = event.club_id, event.start_time, event.end_time
        booking.save(update_fields=["club", "start_time", "end_time", "updated_at"])
        emit_booking(booking, "booking.updated", [_api_name(name) for name in moved])


@transaction.atomic
def delete_event(event: Event) -> None:
    """Refused with 409 RESOURCE_IN_USE once any booking (whatever its status) was made on the event."""
    organization = event.organization
    event = lock_event(event.pk)
    bookings = Booking.objects.filter(event=event).count()
    if bookings:
        raise ResourceInUse(
            f"{bookings} booking(s) were made on this event; cancel it instead.", {"bookings": bookings}
        )
    data = EVENT.event_body(organization, event.pk)
    event.delete()
    emit(organization, "event.deleted", data)


@transaction.atomic
def duplicate_event(event: Event) -> Event:
    """A `draft` copy named "<name> (copy)" with the same ticket types and no sales."""
    source = Event.objects.select_related("organization").get(pk=event.pk)
    copy = Event(
        organization=source.organization,
        club_id=source.club_id,
        name=copy_name(source.name, Event._meta.get_field("name").max_length),
        description=source.description,
        start_time=source.start_time,
        end_time=source.end_time,
        status=EventStatus.DRAFT,
        visibility=source.visibility,
        images=list(source.images or []),
        capacity=source.capacity,
        translations=dict(source.translations or {}),
    )
    _insert(copy)
    tickets = source.tickets.order_by("position", "id").values(*TICKET_FIELDS)
    _create_tickets(copy, list(tickets))
    _emit(copy, "event.created")
    return copy


@transaction.atomic
def _move(event: Event, source: str, target: str, event_type: str) -> Event:
    """`source` -> `target` under the event's row lock (`publishedAt` set on the first publish); otherwise 409."""
    event = lock_event(event.pk)
    if event.status != source:
        raise InvalidStateTransition(event.status)
    event.status = target
    if target == EventStatus.PUBLISHED:
        event.published_at = event.published_at or timezone.now()
    event.save(update_fields=["status", "published_at", "updated_at"])
    _emit(event, event_type)
    return event


def publish_event(event: Event) -> Event:
    """`draft` -> `published` (`publishedAt` set on the first publish); otherwise 409."""
    return _move(event, EventStatus.DRAFT, EventStatus.PUBLISHED, "event.published")


def unpublish_event(event: Event) -> Event:
    """`published` -> `draft`; bookings already made stay. Otherwise 409."""
    return _move(event, EventStatus.PUBLISHED, EventStatus.DRAFT, "event.unpublished")


def _describe(event: Event) -> str:
    return f"{event.name} on {clock.moment_label(event.start_time, event.club)} ({event.club.name})"


@transaction.atomic
def cancel_event(event: Event, *, reason=None, notify_customer=False) -> tuple[Event, list[int]]:
    """`draft`/`published` -> `cancelled`; out of `cancelled` 409. In the same transaction every open (pending or
    confirmed) booking of the event is cancelled through the bookings service (`booking.cancelled`, its charge
    voided when nothing was collected); checked-in bookings stay. With `notify_customer` the attendees whose
    bookings were cancelled are told (after commit). Returns the event and the cancelled booking ids."""
    event = lock_event(event.pk)
    if event.status not in OPEN_EVENT_STATUSES:
        raise InvalidStateTransition(event.status)
    event.status = EventStatus.CANCELLED
    event.cancelled_at = timezone.now()
    event.save(update_fields=["status", "cancelled_at", "updated_at"])
    bookings = list(Booking.objects.filter(event=event, status__in=OPEN_BOOKING_STATUSES).order_by("id"))
    for booking in bookings:
        cancel_booking(booking, reason=reason or "The event was cancelled.")
    if notify_customer:
        lines = [f"{_describe(event)} has been cancelled; your booking is cancelled."]
        if reason:
            lines.append(f"Reason: {reason}")
        notify_contacts(
            event.organization,
            [booking.contact_id for booking in bookings if booking.contact_id],
            kind="event.cancelled",
            subject=f"Event cancelled: {event.name}",
            body="\n".join(lines),
            data={"eventId": event.pk, "reason": reason},
        )
    _emit(event, "event.cancelled")
    return event, [booking.pk for booking in bookings]


# --- booking onto an event ---------------------------------------------------------------------------------------


def _check_sales_window(ticket: EventTicket, now) -> None:
    if ticket.sales_start is not None and now < ticket.sales_start:
        raise Conflict(
            f"Sales of `{ticket.name}` open at {ticket.sales_start.isoformat()}.",
            details={"ticketId": ticket.pk, "salesStart": ticket.sales_start.isoformat()},
        )
    if ticket.sales_end is not None and now >= ticket.sales_end:
        raise Conflict(
            f"Sales of `{ticket.name}` closed at {ticket.sales_end.isoformat()}.",
            details={"ticketId": ticket.pk, "salesEnd": ticket.sales_end.isoformat()},
        )


def _ticket_payment(organization, ticket: EventTicket) -> tuple[str, Decimal | None]:
    """(payment_status, payment_amount) of a new ticket: `no_charge` when the ticket is free."""
    if ticket.price_before_tax <= 0:
        return PaymentStatus.NO_CHARGE, Decimal("0")
    return PaymentStatus.UNPAID, organization.tax_inclusive(ticket.price_before_tax)


def book_event(*, organization, event, contact, ticket_id, notes=None, source="api") -> Booking:
    """Book one person onto a published event with one of its tickets: a `confirmed` Booking of `type: event`
    priced by the ticket, with its charge (`sourceType: event`) and an invoice listing it when the ticket costs
    something.

    Errors: 400 `ticketId` not a ticket of this event; 409 INVALID_STATE_TRANSITION (event not published),
    CONFLICT (outside the ticket's sales window), ALREADY_BOOKED (details.bookingId), SOLD_OUT (details.ticketId:
    the event's capacity or the ticket's quantity is reached).
    """
    with transaction.atomic():
        event = lock_event(event.pk)
        if event.status != EventStatus.PUBLISHED:
            raise InvalidStateTransition(event.status, "Only a published event can be booked.")
        ticket = EventTicket.objects.filter(event=event, pk=ticket_id).first()
        if ticket is None:
            raise ValidationFailed({"ticketId": ["Not a ticket of this event."]})
        _check_sales_window(ticket, timezone.now())
        existing = (
            Booking.objects.filter(event=event, contact=contact, status__in=ACTIVE_BOOKING_STATUSES)
            .order_by("id")
            .values_list("pk", flat=True)
            .first()
        )
        if existing is not None:
            raise AlreadyBooked(details={"bookingId": existing})
        if event.capacity is not None and _sold(event=event) >= event.capacity:
            raise SoldOut("The event is sold out.", details={"ticketId": ticket.pk})
        if ticket.quantity is not None and _sold(event_ticket=ticket) >= ticket.quantity:
            raise SoldOut(f"The `{ticket.name}` tickets are sold out.", details={"ticketId": ticket.pk})
        payment_status, amount = _ticket_payment(organization, ticket)
        booking = Booking.objects.create(
            organization=organization,
            type=BookingType.EVENT,
            status=BookingStatus.CONFIRMED,
            club_id=event.club_id,
            event=event,
            event_ticket=ticket,
            contact=contact,
            start_time=event.start_time,
            end_time=event.end_time,
            price_before_tax=ticket.price_before_tax,
            payment_status=payment_status,
            payment_amount=amount,
            entrance_method=EntranceMethod.DIRECT_PAYMENT,
            source=source,
            notes=notes,
        )
        emit_booking(booking, "booking.created")
        charge = record_booking_charge(
            organization, booking, f"{event.name}: {ticket.name}", source_type=TransactionSourceType.EVENT
        )
        if charge is not None:
            issue_invoice(organization, [charge])
    return booking
