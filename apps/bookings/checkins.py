"""Check-ins: arriving on a booking, or walking in on a membership (optionally into a class).

A walk-in into a class without a booking is a "standalone" check-in: it takes a seat (counted in the class's
`bookedCount`), so it is checked against capacity under the class row lock like a booking.
"""

from django.db import transaction
from django.utils import timezone

from apps.api.exceptions import Conflict, InvalidStateTransition
from apps.classes.choices import ClassStatus
from apps.domain_events.services import emit
from apps.memberships.usage import (
    consume_use,
    lock_membership,
    validate_membership_for_class,
    validate_membership_for_club,
)

from . import events
from .choices import OPEN_BOOKING_STATUSES, BookingStatus, CheckInMethod
from .class_services import (
    ClassCancelled,
    ensure_not_booked,
    ensure_seat_free,
    settle_waitlist_of,
)
from .class_services import lock_occurrence as lock_class
from .models import Booking, CheckIn
from .resources import CHECK_IN


class AlreadyCheckedIn(Conflict):
    code = "ALREADY_CHECKED_IN"

    def __init__(self, checkin_id):
        super().__init__("This booking is already checked in.", details={"checkinId": checkin_id})


def _emit_checkin(organization, checkin):
    emit(organization, "checkin.created", lambda: CHECK_IN.event_body(None, checkin.pk))


def check_in_booking(*, organization, booking, checked_in_at=None, source="api") -> CheckIn:
    """`pending`/`confirmed` booking to `checked_in`. 409 ALREADY_CHECKED_IN (details.checkinId) when it already is,
    409 INVALID_STATE_TRANSITION when cancelled. Emits `checkin.created` and `booking.updated`."""
    with transaction.atomic():
        booking = (
            Booking.objects.select_for_update(of=("self",))
            .select_related("contact", "club", "class_occurrence", "organization")
            .get(pk=booking.pk)
        )
        if booking.status == BookingStatus.CHECKED_IN:
            existing = CheckIn.objects.filter(booking_id=booking.pk).order_by("id").values_list("pk", flat=True).first()
            raise AlreadyCheckedIn(existing)
        if booking.status not in OPEN_BOOKING_STATUSES:
            raise InvalidStateTransition(booking.status)
        at = checked_in_at or timezone.now()
        booking.status = BookingStatus.CHECKED_IN
        booking.checked_in_at = at
        booking.save(update_fields=["status", "checked_in_at", "updated_at"])
        checkin = CheckIn.objects.create(
            organization=organization,
            method=CheckInMethod.BOOKING,
            booking=booking,
            membership_id=booking.membership_id,
            class_occurrence_id=booking.class_occurrence_id,
            club_id=booking.club_id,
            contact=booking.contact,
            source=source,
            checked_in_at=at,
        )
        _emit_checkin(organization, checkin)
        events.emit_booking(booking, "booking.updated", ["status", "checkedIn", "checkedInAt"])
    return checkin


def check_in_walk_in(
    *, organization, membership, occurrence=None, club=None, checked_in_at=None, source="api"
) -> CheckIn:
    """A walk-in on a membership, at a club or into a class (a standalone check-in taking a seat).

    409s: MEMBERSHIP_NOT_VALID (details.reason); into a class also CLASS_CANCELLED, ALREADY_BOOKED (check in the
    booking instead), ALREADY_CHECKED_IN (a walk-in of the same contact into the same class) and CLASS_FULL.
    Consumes one use when the membership's uses are counted. Emits `checkin.created`.
    """
    at = checked_in_at or timezone.now()
    with transaction.atomic():
        occ = lock_class(occurrence.pk) if occurrence is not None else None
        membership = lock_membership(membership.pk)
        contact = membership.contact
        if occ is not None:
            if occ.status == ClassStatus.CANCELLED:
                raise ClassCancelled()
            validate_membership_for_class(membership, occ, contact)
            ensure_not_booked(occ, contact.pk)
            walked_in = (
                CheckIn.objects.filter(
                    class_occurrence_id=occ.pk,
                    contact_id=contact.pk,
                    method=CheckInMethod.MEMBERSHIP,
                    booking__isnull=True,
                )
                .values_list("pk", flat=True)
                .first()
            )
            if walked_in:
                raise AlreadyCheckedIn(walked_in)
            ensure_seat_free(occ)
            club = occ.club
        else:
            validate_membership_for_club(membership, club, at)
        consume_use(membership)
        checkin = CheckIn.objects.create(
            organization=organization,
            method=CheckInMethod.MEMBERSHIP,
            membership=membership,
            class_occurrence=occ,
            club=club,
            contact=contact,
            source=source,
            checked_in_at=at,
        )
        _emit_checkin(organization, checkin)
        if occ is not None:
            settle_waitlist_of(occ, contact.pk)  # a walk-in holds a seat without a booking: its entries are removed
    return checkin
