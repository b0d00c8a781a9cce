"""Area (court) bookings, updates and reschedules, cancelling any booking, and players.

Rules live here so REST, MCP, the channel integration and contact archiving behave the same. Class seats are
booked by `class_services.book_into_class`; this module cancels and moves them through it.
A court is never double-booked: every writer of an area's time (bookings here, blocks in the clubs app) locks
the Area row with `select_for_update` inside its transaction before checking for overlaps.
"""

from decimal import Decimal

from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.api.exceptions import ApiError, Conflict, DuplicateValue, InvalidStateTransition, ValidationFailed
from apps.api.resources import camel_case
from apps.api.validation import ensure_ends_after_start
from apps.clubs.models import Area
from apps.clubs.services import emit_availability_changed
from apps.contacts.choices import ContactStatus
from apps.kernel import clock
from apps.notifications.services import notify_contacts
from apps.occupancy.errors import SlotUnavailable
from apps.occupancy.queries import area_conflicts
from apps.pricing.services import area_booking_price, default_sport
from apps.transactions.booking_charges import record_booking_charge, reprice_booking_charge, void_booking_charge

from .choices import (
    OPEN_BOOKING_STATUSES,
    BookingStatus,
    BookingType,
    EntranceMethod,
    PaymentStatus,
)
from .class_services import move_class_booking, release_seat
from .events import emit_booking
from .models import MAX_PLAYERS_PER_BOOKING, Booking, Player
from .payments import apply_payment_report, refresh_booking_invoices

# --- notices ------------------------------------------------------------------------------------------------


def _notify(booking, kind, subject, body):
    if booking.contact_id:
        notify_contacts(
            booking.organization_id,
            [booking.contact_id],
            kind=kind,
            subject=subject,
            body=body,
            data={"bookingId": booking.id},
        )


def _describe(booking) -> str:
    if booking.area_id and booking.area:
        where = booking.area.name
    elif booking.event_id:
        where = booking.event.name
    else:
        where = "your class"
    return f"{where} on {clock.moment_label(booking.start_time, booking.club)}"


# --- prices and payment -------------------------------------------------------------------------------------


def _set_price(booking, organization, price_before_tax):
    """Store the price and the derived payment amount and status (area bookings)."""
    booking.price_before_tax = price_before_tax
    booking.payment_amount = organization.tax_inclusive(price_before_tax)
    amount = booking.payment_amount or Decimal("0")
    if amount <= 0:
        booking.payment_status = PaymentStatus.NO_CHARGE
    elif (booking.paid_amount or 0) >= amount:
        booking.payment_status = PaymentStatus.PAID
    else:
        booking.payment_status = PaymentStatus.UNPAID


# --- conflicts ------------------------------------------------------------------------------------------------


def lock_area(area_id):
    return Area.objects.select_for_update(of=("self",)).select_related("club", "area_type").get(pk=area_id)


def _ensure_slot_free(area, start_time, end_time, exclude_booking_id=None):
    conflicts = area_conflicts(area, start_time, end_time, exclude_booking_id)
    if conflicts:
        raise SlotUnavailable(conflicts)


OVERLAP_CONSTRAINT = "booking_area_no_overlap"  # PostgreSQL exclusion constraint declared on Booking


def _is_overlap_violation(error) -> bool:
    diag = getattr(getattr(error, "__cause__", None), "diag", None)
    return getattr(diag, "constraint_name", None) == OVERLAP_CONSTRAINT


def _save_area_booking(booking, **save_kwargs):
    """Save inside a savepoint; the database's exclusion constraint (defense in depth beside the Area row lock)
    answers like the overlap check: 409 SLOT_UNAVAILABLE."""
    try:
        with transaction.atomic():
            booking.save(**save_kwargs)
    except IntegrityError as error:
        if not _is_overlap_violation(error):
            raise
        conflicts = area_conflicts(booking.area, booking.start_time, booking.end_time, booking.pk)
        raise SlotUnavailable(conflicts) from error


def _check_area(area):
    if not area.is_active:
        raise ValidationFailed({"areaId": ["The area is not active."]})


def _check_contact(contact, field="contactId"):
    if contact is not None and contact.status != ContactStatus.ACTIVE:
        raise ValidationFailed({field: ["The contact is archived."]})


# --- players ----------------------------------------------------------------------------------------------


def _player_limit(area) -> int:
    """The most players (organizer included) a booking of `area` takes: its type's `max_players`, at most 50."""
    area_limit = area.area_type.max_players if area.area_type_id and area.area_type else None
    return MAX_PLAYERS_PER_BOOKING if area_limit is None else min(area_limit, MAX_PLAYERS_PER_BOOKING)


def _raise_player_limit(max_players):
    raise ApiError(
        f"The area takes at most {max_players} players.",
        code="PLAYER_LIMIT_REACHED",
        status=409,
        details={"maxPlayers": max_players},
    )


def _player_fields(entry) -> dict:
    """`{contact}` or `{name, email}` as Player model fields (name and e-mail copied from the contact)."""
    contact = entry.get("contact")
    if contact is not None:
        return {"contact": contact, "name": contact.name, "email": contact.email}
    return {"contact": None, "name": entry["name"], "email": entry.get("email") or None}


def _find_duplicate(existing: list[Player], fields: dict, match_emails: bool):
    """The player `fields` repeats, by contact, or by e-mail when `match_emails` (the caller may read contact
    e-mails: otherwise a 409 on a guessed address would tell whether it is the organizer's or a player's)."""
    for player in existing:
        if fields["contact"] is not None and player.contact_id == fields["contact"].pk:
            return "contactId", player
        if match_emails and fields["email"] and player.email and player.email.lower() == fields["email"].lower():
            return "email", player
    return None


def _add_players(booking, organizer, entries, max_players, match_emails):
    existing = [
        Player.objects.create(
            organization_id=booking.organization_id,
            booking=booking,
            contact=organizer,
            name=organizer.name,
            email=organizer.email,
            is_organizer=True,
        )
    ]
    for entry in entries:
        fields = _player_fields(entry)
        _check_contact(fields["contact"], field="players")  # as POST /players refuses an archived contact
        duplicate = _find_duplicate(existing, fields, match_emails)
        if duplicate:
            if duplicate[1].is_organizer and duplicate[0] == "contactId":
                continue  # the organizer listed again: already a player
            raise DuplicateValue(duplicate[0], duplicate[1].id, "That person is already a player of this booking.")
        if len(existing) >= max_players:
            _raise_player_limit(max_players)
        existing.append(Player.objects.create(organization_id=booking.organization_id, booking=booking, **fields))


def add_player(booking, *, contact=None, name=None, email=None, match_emails=True) -> Player:
    """Add a participant to an area booking (409 PLAYER_LIMIT_REACHED / DUPLICATE_VALUE). Without `match_emails`
    an e-mail already on the booking is not a duplicate (see `_find_duplicate`)."""
    if booking.type != BookingType.AREA:
        raise ValidationFailed({"bookingId": ["Players can only be added to area bookings."]})
    with transaction.atomic():
        booking = Booking.objects.select_for_update(of=("self",)).select_related("area__area_type").get(pk=booking.pk)
        if booking.status == BookingStatus.CANCELLED:
            raise InvalidStateTransition(booking.status, "A cancelled booking cannot take players.")
        _check_contact(contact)
        existing = list(booking.players.order_by("id"))
        fields = _player_fields({"contact": contact} if contact is not None else {"name": name, "email": email})
        duplicate = _find_duplicate(existing, fields, match_emails)
        if duplicate:
            raise DuplicateValue(duplicate[0], duplicate[1].id, "That person is already a player of this booking.")
        max_players = _player_limit(booking.area)
        if len(existing) >= max_players:
            _raise_player_limit(max_players)
        player = Player.objects.create(organization_id=booking.organization_id, booking=booking, **fields)
        booking.save(update_fields=["updated_at"])
        emit_booking(booking, "booking.updated", ["players", "playerCount"])
    return player


def remove_player(booking, player) -> None:
    """Remove a participant; the organizer cannot be removed (409 CONFLICT)."""
    if player.is_organizer:
        raise Conflict("The organizer cannot be removed from the booking.")
    with transaction.atomic():
        booking = Booking.objects.select_for_update().get(pk=booking.pk)
        player.delete()
        booking.save(update_fields=["updated_at"])
        emit_booking(booking, "booking.updated", ["players", "playerCount"])


# --- create -------------------------------------------------------------------------------------------------


def create_area_booking(
    *,
    organization,
    area,
    contact,
    start_time,
    end_time,
    players=(),
    sport=None,
    price_before_tax=None,
    status=BookingStatus.CONFIRMED,
    notes=None,
    notify_customer=False,
    source="api",
    external_source=None,
    external_id=None,
    payment=None,
    match_player_emails=True,
) -> Booking:
    """Book a court. Locks the Area row, so concurrent requests for one slot yield exactly one booking.
    `match_player_emails`: as `add_player`'s `match_emails`."""
    ensure_ends_after_start(start_time, end_time)
    _check_contact(contact)
    with transaction.atomic():
        area = lock_area(area.pk)
        _check_area(area)
        _ensure_slot_free(area, start_time, end_time)
        max_players = _player_limit(area)
        if price_before_tax is None:
            price_before_tax = area_booking_price(
                organization, area, start_time, end_time, contact=contact, sport=sport
            )
        booking = Booking(
            organization=organization,
            type=BookingType.AREA,
            status=status,
            club_id=area.club_id,
            area=area,
            contact=contact,
            start_time=start_time,
            end_time=end_time,
            sport=sport if sport is not None else default_sport(area),
            notes=notes,
            source=source,
            external_source=external_source,
            external_id=external_id,
            entrance_method=EntranceMethod.DIRECT_PAYMENT,
        )
        _set_price(booking, organization, price_before_tax)
        _save_area_booking(booking)
        _add_players(booking, contact, players, max_players, match_player_emails)
        reported = apply_payment_report(booking, emit_event=False, **payment) if payment else booking
        emit_booking(booking, "booking.created")
        record_booking_charge(organization, reported, f"Booking of {area.name}")
        emit_availability_changed(area, start_time, end_time, cause="booking")
        if notify_customer:
            booking.area, booking.club = area, area.club
            _notify(booking, "booking.created", "Booking confirmed", f"Your booking of {_describe(booking)}.")
    return booking


# --- update / reschedule ------------------------------------------------------------------------------------

AREA_FIELDS = {"area", "start_time", "end_time", "price_before_tax", "sport", "notes", "status"}
# `status` (pending -> confirmed only) applies to every type: "Booking / Class booking: pending to
# confirmed (PATCH or payment)".
CLASS_FIELDS = {"notes", "class_occurrence", "status"}
EVENT_FIELDS = {"notes", "status"}


def _api_name(name: str) -> str:
    """The body field of a booking field a PATCH names (`area` is `areaId`, `class_occurrence` is `classId`)."""
    return {"area": "areaId", "class_occurrence": "classId"}.get(name) or camel_case(name)


def _lock_booking(booking_id: int) -> Booking:
    return (
        Booking.objects.select_for_update(of=("self",))
        .select_related("area__club", "club", "organization")
        .get(pk=booking_id)
    )


def update_booking(booking, changes: dict, *, notify_customer=False) -> Booking:
    """PATCH a booking. Area: reschedule (same conflict rules, excluding itself), price, sport, notes,
    `pending` -> `confirmed`. Class: notes, `pending` -> `confirmed`, and `class_occurrence` to move the seat.
    Cancelled: 409."""
    allowed = {BookingType.AREA: AREA_FIELDS, BookingType.CLASS: CLASS_FIELDS}.get(booking.type, EVENT_FIELDS)
    refused = [_api_name(k) for k in changes if k not in allowed]
    if refused:
        raise ValidationFailed({name: [f"Not writable on a {booking.type} booking."] for name in refused})
    with transaction.atomic():
        booking = _lock_booking(booking.pk)
        if booking.status == BookingStatus.CANCELLED:
            raise InvalidStateTransition(booking.status)
        changed = []
        moved = None
        if "class_occurrence" in changes:
            occurrence = changes.pop("class_occurrence")
            if occurrence.pk != booking.class_occurrence_id:
                booking = move_class_booking(booking, occurrence)
                changed.append("classId")
        if "status" in changes:
            new_status = changes.pop("status")
            if new_status != booking.status:
                if not (booking.status == BookingStatus.PENDING and new_status == BookingStatus.CONFIRMED):
                    raise InvalidStateTransition(
                        booking.status, f"Cannot change status from `{booking.status}` to `{new_status}`."
                    )
                booking.status = new_status
                changed.append("status")
        if {"area", "start_time", "end_time"} & changes.keys():
            old = (booking.area, booking.start_time, booking.end_time)
            area = changes.get("area", booking.area)
            start_time = changes.get("start_time", booking.start_time)
            end_time = changes.get("end_time", booking.end_time)
            if (area.pk, start_time, end_time) != (old[0].pk, old[1], old[2]):
                ensure_ends_after_start(start_time, end_time)
                area = lock_area(area.pk)
                _check_area(area)
                _ensure_slot_free(area, start_time, end_time, exclude_booking_id=booking.pk)
                if area.pk != old[0].pk:
                    max_players = _player_limit(area)
                    if booking.players.count() > max_players:
                        _raise_player_limit(max_players)
                    booking.club_id = area.club_id
                    changed.append("areaId")
                if start_time != old[1]:
                    changed.append("startTime")
                if end_time != old[2]:
                    changed.append("endTime")
                booking.area, booking.start_time, booking.end_time = area, start_time, end_time
                moved = old
        if moved and "price_before_tax" not in changes:
            # A moved booking costs what the quote says for its new area and times, as a new booking would.
            changes["price_before_tax"] = area_booking_price(
                booking.organization,
                booking.area,
                booking.start_time,
                booking.end_time,
                contact=booking.contact,
                sport=changes.get("sport", booking.sport),
            )
        if "price_before_tax" in changes:
            price = changes.pop("price_before_tax")
            if price != booking.price_before_tax:
                _set_price(booking, booking.organization, price)
                changed += ["priceBeforeTax", "price", "payment"]
        for name in ("sport", "notes"):
            if name in changes and changes[name] != getattr(booking, name):
                setattr(booking, name, changes[name])
                changed.append(_api_name(name))
        if changed:
            if moved:
                _save_area_booking(booking)
            else:
                booking.save()
            emit_booking(booking, "booking.updated", changed)
            if booking.type == BookingType.AREA and {"priceBeforeTax", "areaId", "startTime", "endTime"} & set(changed):
                reprice_booking_charge(booking.organization, booking, f"Booking of {booking.area.name}")
            elif booking.type == BookingType.CLASS and "classId" in changed:
                # The seat keeps its price; its charge names the new class and club.
                reprice_booking_charge(booking.organization, booking, f"Class: {booking.class_occurrence.name}")
        if moved:
            emit_availability_changed(*moved, cause="booking")
            emit_availability_changed(booking.area, booking.start_time, booking.end_time, cause="booking")
            if notify_customer:
                _notify(booking, "booking.rescheduled", "Booking changed", f"Your booking is now {_describe(booking)}.")
    return booking


# --- cancel ---------------------------------------------------------------------------------------------------


def cancel_booking(booking, *, reason=None, notify_customer=False) -> Booking:
    """`pending`/`confirmed` -> `cancelled` for any booking type; from `checked_in`/`cancelled` 409.

    Frees the slot or seat. For a class booking `class_services.release_seat` runs in the same transaction (the first
    pending waitlist entry becomes `notified`). Emits `booking.cancelled`, and `availability.changed` for areas.
    """
    with transaction.atomic():
        booking = _lock_booking(booking.pk)
        if booking.status not in OPEN_BOOKING_STATUSES:
            raise InvalidStateTransition(booking.status)
        booking.status = BookingStatus.CANCELLED
        booking.cancelled_at = timezone.now()
        booking.cancellation_reason = reason
        booking.save(update_fields=["status", "cancelled_at", "cancellation_reason", "updated_at"])
        if booking.type == BookingType.CLASS:
            release_seat(booking)
        emit_booking(booking, "booking.cancelled")
        void_booking_charge(booking)
        refresh_booking_invoices(booking)
        if booking.type == BookingType.AREA and booking.area_id:
            emit_availability_changed(booking.area, booking.start_time, booking.end_time, cause="booking")
        if notify_customer:
            _notify(
                booking,
                "booking.cancelled",
                "Booking cancelled",
                f"Your booking of {_describe(booking)} was cancelled.",
            )
    return booking
