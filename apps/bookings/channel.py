"""Channel integration: a partner booking platform syncs its bookings by (externalSource, externalId).

Create (area or class) and lookup by external id; cancel and payment reports call the booking services on the
booking found. Channel-created bookings carry `source: channel`.
"""

from django.db import IntegrityError, transaction

from apps.api.exceptions import DuplicateValue, NotFound
from apps.contacts.services import find_or_create_contact

from .choices import BookingType
from .class_services import book_into_class
from .models import Booking
from .services import create_area_booking


def _channel_bookings(organization, external_source, external_id):
    return Booking.objects.filter(organization=organization, external_source=external_source, external_id=external_id)


def get_channel_booking(organization, external_source, external_id) -> Booking:
    booking = _channel_bookings(organization, external_source, external_id).first()
    if booking is None:
        raise NotFound()
    return booking


def _refuse_existing(organization, external_source, external_id) -> None:
    """409 DUPLICATE_VALUE naming the booking that already holds this external id."""
    existing_id = _channel_bookings(organization, external_source, external_id).values_list("pk", flat=True).first()
    if existing_id:
        raise DuplicateValue("externalId", existing_id, "A booking with this externalSource and externalId exists.")


def _resolve_contact(organization, data, match_emails):
    if data.get("contact") is not None:
        return data["contact"]
    return find_or_create_contact(organization, **data["new_contact"], match_email=match_emails)


def create_channel_booking(organization, data: dict, *, match_emails=True) -> Booking:
    """Create an area or class booking from a partner; an existing (externalSource, externalId) is a 409.

    `match_emails` (the caller holds `contacts:read`): a `contact` block reuses the active contact with its e-mail,
    and a player repeating a booked e-mail is a duplicate. Without it a `contact` block always makes a new contact
    and e-mails are not compared, so the answer (ids aside) is the same whether or not an e-mail is known: the
    booking never shows an existing contact's id or name to a caller that may not read contacts.
    """
    external_source, external_id = data["external_source"], data["external_id"]
    _refuse_existing(organization, external_source, external_id)
    try:
        with transaction.atomic():
            contact = _resolve_contact(organization, data, match_emails)
            if data.get("type", BookingType.AREA) == BookingType.CLASS:
                booking = book_into_class(
                    organization=organization,
                    occurrence=data["class_occurrence"],
                    contact=contact,
                    notes=data.get("notes"),
                    source="channel",
                    external_source=external_source,
                    external_id=external_id,
                    price_before_tax=data.get("price_before_tax"),
                    payment=data.get("payment"),
                )
            else:
                booking = create_area_booking(
                    organization=organization,
                    area=data["area"],
                    contact=contact,
                    start_time=data["start_time"],
                    end_time=data["end_time"],
                    players=data.get("players") or (),
                    price_before_tax=data.get("price_before_tax"),
                    notes=data.get("notes"),
                    source="channel",
                    external_source=external_source,
                    external_id=external_id,
                    payment=data.get("payment"),
                    match_player_emails=match_emails,
                )
    except IntegrityError:
        # A concurrent request created the same external id between our check and insert.
        _refuse_existing(organization, external_source, external_id)
        raise
    return booking
