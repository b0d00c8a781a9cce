"""Response shapes of bookings and players (plain functions over prefetched querysets: no per-row queries).

`ctx` is a dict: `organization` (for the tax-inclusive price) and `can_read_contacts` (the credential holds
`contacts:read`; otherwise every embedded contact e-mail is null, API.md §1).
"""

from django.db.models import Prefetch

from apps.api.presenters import money

from .models import Player


def booking_context(organization, credential=None) -> dict:
    """The presenter context for a request's credential; without one (events) e-mails are hidden."""
    can_read = bool(credential is not None and credential.has_scope("contacts:read"))
    return {"organization": organization, "can_read_contacts": can_read}


def booking_queryset(queryset):
    """What `present_booking` reads, in a constant number of queries."""
    return queryset.select_related("area", "contact").prefetch_related(
        Prefetch("players", queryset=Player.objects.order_by("-is_organizer", "id"))
    )


def present_payment(booking) -> dict:
    """The `payment` object shared by the Booking and the Class booking (roster row) shapes."""
    return {
        "status": booking.payment_status,
        "amount": money(booking.payment_amount),
        "paidAmount": money(booking.paid_amount) if booking.paid_amount is not None else 0.0,
        "refundedAmount": money(booking.refunded_amount) if booking.refunded_amount is not None else 0.0,
        "reference": booking.payment_reference,
        "fee": money(booking.payment_fee),
    }


def present_player(player, ctx) -> dict:
    return {
        "id": player.id,
        "contactId": player.contact_id,
        "name": player.name,
        "email": player.email if ctx.get("can_read_contacts") else None,
        "isOrganizer": player.is_organizer,
        "createdAt": player.created_at,
    }


def present_booking(booking, ctx) -> dict:
    organization = ctx["organization"]
    contact = booking.contact
    area = booking.area
    if booking.type == "area":
        players = [present_player(p, ctx) for p in booking.players.all()]
        player_count = len(players)
    else:
        players = []
        player_count = 1
    return {
        "id": booking.id,
        "type": booking.type,
        "status": booking.status,
        "clubId": booking.club_id,
        "areaId": booking.area_id,
        "area": {"id": area.id, "name": area.name} if area else None,
        "classId": booking.class_occurrence_id,
        "eventId": booking.event_id,
        "contactId": booking.contact_id,
        "contactName": contact.name if contact else None,
        "contactEmail": contact.email if contact and ctx.get("can_read_contacts") else None,
        "bookerName": booking.booker_name,
        "startTime": booking.start_time,
        "endTime": booking.end_time,
        "durationMinutes": int((booking.end_time - booking.start_time).total_seconds() // 60),
        "sport": booking.sport,
        "players": players,
        "playerCount": player_count,
        "priceBeforeTax": money(booking.price_before_tax),
        "price": organization.tax_inclusive(booking.price_before_tax),
        "payment": present_payment(booking),
        "membershipId": booking.membership_id,
        "entranceMethod": booking.entrance_method,
        "source": booking.source,
        "externalSource": booking.external_source,
        "externalId": booking.external_id,
        "checkedIn": booking.checked_in_at is not None,
        "checkedInAt": booking.checked_in_at,
        "notes": booking.notes,
        "cancelledAt": booking.cancelled_at,
        "cancellationReason": booking.cancellation_reason,
        "createdAt": booking.created_at,
        "updatedAt": booking.updated_at,
    }
