"""Class seats: booking a contact into a class occurrence, moving a seat, freeing one, and the waitlist.

Capacity is checked under a row lock on the ClassOccurrence (`SELECT ... FOR UPDATE`), so concurrent requests for
the last seats are serialised per class and can never overbook. What takes a seat (active class bookings plus
standalone walk-in check-ins) is defined once in `apps.occupancy.queries`, which the Class counts read too.

Lock order, everywhere: class occurrence(s) (by id), then waitlist entries, then memberships. A caller that has
already locked a booking (cancel, PATCH) may then lock occurrences; nothing here locks a booking after a class.
"""

from django.db import transaction
from django.utils import timezone

from apps.api.exceptions import Conflict, InvalidStateTransition
from apps.classes.choices import ClassStatus
from apps.classes.models import ClassOccurrence
from apps.domain_events.services import emit
from apps.kernel import clock
from apps.memberships.usage import consume_use, lock_membership, restore_use, validate_membership_for_class
from apps.notifications.services import notify_contacts
from apps.occupancy.queries import active_class_bookings, booked_count
from apps.transactions.booking_charges import record_booking_charge

from . import events
from .choices import (
    ACTIVE_WAITLIST_STATUSES,
    OPEN_BOOKING_STATUSES,
    BookingStatus,
    BookingType,
    EntranceMethod,
    PaymentStatus,
    WaitlistStatus,
)
from .models import Booking, WaitlistEntry
from .payments import apply_payment_report
from .resources import waitlist_event_data

# --- errors ------------------------------------------------------------------------------------------------------


class ClassFull(Conflict):  # details: allowWaitlist
    code = "CLASS_FULL"
    default_message = "No spot is left in this class."


class ClassNotFull(Conflict):  # details: spotsLeft
    code = "CLASS_NOT_FULL"
    default_message = "The class still has free spots; book a seat instead."


class ClassCancelled(Conflict):
    code = "CLASS_CANCELLED"
    default_message = "The class is cancelled."


class AlreadyBooked(Conflict):  # details: bookingId
    code = "ALREADY_BOOKED"
    default_message = "The contact already holds an active booking in this class."


class AlreadyOnWaitlist(Conflict):  # details: entryId
    code = "ALREADY_ON_WAITLIST"
    default_message = "The contact is already on this class's waitlist."


class WaitlistNotAllowed(Conflict):
    code = "WAITLIST_NOT_ALLOWED"
    default_message = "This class does not allow a waitlist."


# --- occupancy ---------------------------------------------------------------------------------------------------


def spots_left(occurrence, booked: int) -> int | None:
    if occurrence.max_capacity is None:
        return None
    return max(0, occurrence.max_capacity - booked)


def lock_occurrence(occurrence_id: int) -> ClassOccurrence:
    """Reload and row-lock a class occurrence (inside `transaction.atomic()`)."""
    return (
        ClassOccurrence.objects.select_for_update(of=("self",))
        .select_related("club", "class_type", "organization")
        .get(pk=occurrence_id)
    )


def ensure_not_booked(occurrence, contact_id, exclude_id=None) -> None:
    """Raise ALREADY_BOOKED when the contact (if any) holds an active seat in the class (other than `exclude_id`)."""
    if contact_id is None:
        return
    seats = active_class_bookings().filter(class_occurrence_id=occurrence.pk, contact_id=contact_id)
    if exclude_id is not None:
        seats = seats.exclude(pk=exclude_id)
    existing = seats.order_by("id").values_list("pk", flat=True).first()
    if existing:
        raise AlreadyBooked(details={"bookingId": existing})


def ensure_seat_free(occurrence) -> None:
    """Raise CLASS_FULL when the (locked) class has no spot left."""
    if occurrence.max_capacity is not None and booked_count(occurrence.pk) >= occurrence.max_capacity:
        raise ClassFull(details={"allowWaitlist": occurrence.allow_waitlist})


def settle_waitlist_of(occurrence, contact_id, *, booking=None) -> list[int]:
    """The contact got a seat in the (locked) class another way: their active waitlist entries are done.

    With a booking they become `promoted` (bookingId set, `waitlist.promoted`); a walk-in without a booking makes
    them `removed` (`waitlist.removed`). No freed-seat notice is passed on: the seat went to this contact. Runs in the
    caller's transaction, after the seat was taken; returns the settled entry ids.
    """
    if contact_id is None:
        return []
    entries = list(
        WaitlistEntry.objects.select_for_update(of=("self",))
        .filter(class_occurrence_id=occurrence.pk, contact_id=contact_id, status__in=ACTIVE_WAITLIST_STATUSES)
        .order_by("id")
    )
    for entry in entries:
        if booking is not None:
            entry.status, entry.booking = WaitlistStatus.PROMOTED, booking
            entry.save(update_fields=["status", "booking"])
            emit(occurrence.organization, "waitlist.promoted", waitlist_event_data(entry.pk))
        else:
            entry.status = WaitlistStatus.REMOVED
            entry.save(update_fields=["status"])
            emit(occurrence.organization, "waitlist.removed", waitlist_event_data(entry.pk))
    return [e.pk for e in entries]


# --- booking into a class ----------------------------------------------------------------------------------------


def _seat_payment(organization, occurrence, *, membership, price_before_tax):
    """(entrance_method, payment_status, payment_amount, price_before_tax) of a new seat."""
    if price_before_tax is None:
        price_before_tax = occurrence.price_before_tax
    if membership is not None:
        return EntranceMethod.MEMBERSHIP, PaymentStatus.NO_CHARGE, 0, price_before_tax
    if occurrence.is_free:
        return EntranceMethod.DIRECT_PAYMENT, PaymentStatus.NO_CHARGE, 0, price_before_tax
    payment_amount = organization.tax_inclusive(price_before_tax)
    return EntranceMethod.DIRECT_PAYMENT, PaymentStatus.UNPAID, payment_amount, price_before_tax


def book_into_class(
    *,
    organization,
    occurrence,
    contact,
    membership=None,
    status=BookingStatus.CONFIRMED,
    notes=None,
    source="api",
    notify_customer=False,
    external_source=None,
    external_id=None,
    price_before_tax=None,
    payment=None,
) -> Booking:
    """Book one person into a class occurrence.

    409s: CLASS_CANCELLED, ALREADY_BOOKED (details.bookingId), MEMBERSHIP_NOT_VALID (details.reason), CLASS_FULL
    (details.allowWaitlist). A membership seat is `no_charge` and consumes one use when uses are counted.
    `payment` (a partner's payment report) is applied before `booking.created` is emitted, so the one event
    carries it. With `notify_customer` the contact is told (after commit).
    """
    if status not in OPEN_BOOKING_STATUSES:
        raise ValueError(f"a new class booking is confirmed or pending, not {status!r}")
    with transaction.atomic():
        occ = lock_occurrence(occurrence.pk)
        if occ.status == ClassStatus.CANCELLED:
            raise ClassCancelled()
        ensure_not_booked(occ, getattr(contact, "pk", None))
        if membership is not None:
            membership = lock_membership(membership.pk)
            validate_membership_for_class(membership, occ, contact)
        ensure_seat_free(occ)
        entrance, payment_status, amount, before_tax = _seat_payment(
            occ.organization, occ, membership=membership, price_before_tax=price_before_tax
        )
        booking = Booking.objects.create(
            organization=organization,
            type=BookingType.CLASS,
            status=status,
            club=occ.club,
            class_occurrence=occ,
            contact=contact,
            start_time=occ.start_time,
            end_time=occ.end_time,
            sport=occ.sport,
            price_before_tax=before_tax,
            payment_status=payment_status,
            payment_amount=amount,
            membership=membership,
            entrance_method=entrance,
            source=source,
            external_source=external_source,
            external_id=external_id,
            notes=notes,
        )
        if membership is not None:
            consume_use(membership)
        if payment:
            booking = apply_payment_report(booking, emit_event=False, **payment)
        booking.class_occurrence = occ
        events.emit_booking(booking, "booking.created")
        record_booking_charge(organization, booking, f"Class: {occ.name}")
        settle_waitlist_of(occ, getattr(contact, "pk", None), booking=booking)
        if notify_customer and contact is not None:
            notify_contacts(
                organization,
                [contact.pk],
                kind="class_booking.confirmed",
                subject=f"You're booked: {occ.name}",
                body=f"Your seat in {occ.name} on {clock.moment_label(occ.start_time, occ.club)} is {status}.",
                data={"bookingId": booking.pk, "classId": occ.pk},
            )
    return booking


# --- freeing a seat ----------------------------------------------------------------------------------------------


def offer_free_seat(occurrence_id: int) -> WaitlistEntry | None:
    """A seat may have freed up in the class: tell the first `pending` entry (by position) and mark it `notified`.

    Nothing happens for a cancelled or past class, or when the entries already notified cover every free spot.
    Must run inside a transaction; the `waitlist.notified` event is recorded in it, the notice goes out after commit.
    """
    occ = lock_occurrence(occurrence_id)
    if occ.status == ClassStatus.CANCELLED or occ.start_time <= timezone.now():
        return None
    free = spots_left(occ, booked_count(occ.pk))
    notified = WaitlistEntry.objects.filter(class_occurrence_id=occ.pk, status=WaitlistStatus.NOTIFIED).count()
    if free is not None and notified >= free:
        return None
    entry = (
        WaitlistEntry.objects.select_for_update(of=("self",))
        .select_related("contact")
        .filter(class_occurrence_id=occ.pk, status=WaitlistStatus.PENDING)
        .order_by("position", "id")
        .first()
    )
    if entry is None:
        return None
    entry.status = WaitlistStatus.NOTIFIED
    entry.notified_at = timezone.now()
    entry.save(update_fields=["status", "notified_at"])
    notify_contacts(
        occ.organization,
        [entry.contact_id],
        kind="waitlist.notified",
        subject=f"A spot opened in {occ.name}",
        body=f"A spot opened in {occ.name} on {clock.moment_label(occ.start_time, occ.club)}. Book it before someone "
        "else does.",
        data={"classId": occ.pk, "waitlistEntryId": entry.pk},
    )
    emit(occ.organization, "waitlist.notified", waitlist_event_data(entry.pk))
    return entry


def release_seat(booking) -> None:
    """Called inside the caller's transaction after a class booking was cancelled: the seat goes back to the class
    (a membership seat gives its use back) and the first pending waitlist entry is notified."""
    if booking.type != BookingType.CLASS or not booking.class_occurrence_id:
        return
    offer_free_seat(booking.class_occurrence_id)  # locks the class first: the lock order is class, then membership
    if booking.membership_id and booking.entrance_method == EntranceMethod.MEMBERSHIP:
        restore_use(booking.membership)


def move_class_booking(booking, new_occurrence) -> Booking:
    """Move a class seat to another occurrence (PATCH classId). 409s on the target: CLASS_CANCELLED, ALREADY_BOOKED,
    CLASS_FULL. The old seat is offered to its waitlist. Payment and membership stay as they were. The caller emits
    `booking.updated`."""
    if booking.status not in OPEN_BOOKING_STATUSES:
        raise InvalidStateTransition(booking.status)
    old_id = booking.class_occurrence_id
    if new_occurrence.pk == old_id:
        return booking
    with transaction.atomic():
        locked = {pk: lock_occurrence(pk) for pk in sorted(p for p in (old_id, new_occurrence.pk) if p)}
        target = locked[new_occurrence.pk]
        if target.status == ClassStatus.CANCELLED:
            raise ClassCancelled()
        ensure_not_booked(target, booking.contact_id, exclude_id=booking.pk)
        ensure_seat_free(target)
        booking.class_occurrence = target
        booking.club = target.club
        booking.start_time = target.start_time
        booking.end_time = target.end_time
        booking.sport = target.sport
        booking.save(update_fields=["class_occurrence", "club", "start_time", "end_time", "sport", "updated_at"])
        settle_waitlist_of(target, booking.contact_id, booking=booking)
        if old_id:
            offer_free_seat(old_id)
    return booking


# --- waitlist ----------------------------------------------------------------------------------------------------


def join_waitlist(*, organization, occurrence, contact, notes=None) -> WaitlistEntry:
    """Put a contact at the end of a full class's waitlist. 409s: CLASS_CANCELLED, WAITLIST_NOT_ALLOWED,
    ALREADY_BOOKED, ALREADY_ON_WAITLIST, CLASS_NOT_FULL (details.spotsLeft). Emits `waitlist.joined`."""
    with transaction.atomic():
        occ = lock_occurrence(occurrence.pk)
        if occ.status == ClassStatus.CANCELLED:
            raise ClassCancelled()
        if not occ.allow_waitlist:
            raise WaitlistNotAllowed()
        ensure_not_booked(occ, contact.pk)
        waiting = (
            WaitlistEntry.objects.filter(
                class_occurrence_id=occ.pk, contact_id=contact.pk, status__in=ACTIVE_WAITLIST_STATUSES
            )
            .values_list("pk", flat=True)
            .first()
        )
        if waiting:
            raise AlreadyOnWaitlist(details={"entryId": waiting})
        free = spots_left(occ, booked_count(occ.pk))
        if free is None or free > 0:
            raise ClassNotFull(details={"spotsLeft": free})
        last = (
            WaitlistEntry.objects.filter(class_occurrence_id=occ.pk)
            .order_by("-position")
            .values_list("position", flat=True)
            .first()
        )
        entry = WaitlistEntry.objects.create(
            organization=organization,
            class_occurrence=occ,
            contact=contact,
            position=(last or 0) + 1,
            status=WaitlistStatus.PENDING,
            notes=notes,
        )
        emit(organization, "waitlist.joined", waitlist_event_data(entry.pk))
    return entry


def promote_waitlist_entry(entry, *, membership=None, notes=None, notify_customer=False) -> Booking:
    """Book the entry's contact into the class and mark the entry `promoted` (CLASS_FULL when no spot is free).
    Only `pending` and `notified` entries can be promoted. Emits `booking.created` and `waitlist.promoted`."""
    with transaction.atomic():
        occ = lock_occurrence(entry.class_occurrence_id)
        entry = WaitlistEntry.objects.select_for_update(of=("self",)).select_related("contact").get(pk=entry.pk)
        if entry.status not in ACTIVE_WAITLIST_STATUSES:
            raise InvalidStateTransition(entry.status)
        # book_into_class settles the contact's active entries of this class: this one becomes `promoted` with
        # the booking and `waitlist.promoted` is emitted there (once).
        booking = book_into_class(
            organization=occ.organization,
            occurrence=occ,
            contact=entry.contact,
            membership=membership,
            notes=notes if notes is not None else entry.notes,
            notify_customer=notify_customer,
        )
    return booking


def remove_waitlist_entry(entry) -> WaitlistEntry:
    """Take an entry off the waitlist (status `removed`). A removed `notified` entry passes its notice on.
    Only `pending` and `notified` entries can be removed. Emits `waitlist.removed`."""
    with transaction.atomic():
        occ = lock_occurrence(entry.class_occurrence_id)
        entry = WaitlistEntry.objects.select_for_update(of=("self",)).select_related("contact").get(pk=entry.pk)
        if entry.status not in ACTIVE_WAITLIST_STATUSES:
            raise InvalidStateTransition(entry.status)
        was_notified = entry.status == WaitlistStatus.NOTIFIED
        entry.status = WaitlistStatus.REMOVED
        entry.save(update_fields=["status"])
        emit(occ.organization, "waitlist.removed", waitlist_event_data(entry.pk))
        if was_notified:
            offer_free_seat(occ.pk)
    return entry
