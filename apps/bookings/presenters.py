"""Response shapes of bookings and players: plain functions over value rows (no model instances, no per-row queries).

A list page costs one query for the rows (`.values()` with the area and contact columns joined) and one for the
players of the page's area bookings, whatever its size. `ctx` is a dict: `organization` (for the tax-inclusive
price) and `can_read_contacts` (the credential holds `contacts:read`; otherwise every embedded contact e-mail is
null, API.md §1).
"""

from collections import defaultdict

from apps.api.presenters import money

from .models import Player

BOOKING_COLUMNS = (
    "id",
    "type",
    "status",
    "club_id",
    "area_id",
    "area__name",
    "class_occurrence_id",
    "event_id",
    "contact_id",
    "contact__first_name",
    "contact__last_name",
    "contact__email",
    "booker_name",
    "start_time",
    "end_time",
    "sport",
    "price_before_tax",
    "payment_status",
    "payment_amount",
    "paid_amount",
    "refunded_amount",
    "payment_reference",
    "payment_fee",
    "membership_id",
    "entrance_method",
    "source",
    "external_source",
    "external_id",
    "checked_in_at",
    "notes",
    "cancelled_at",
    "cancellation_reason",
    "created_at",
    "updated_at",
)
PLAYER_COLUMNS = ("id", "booking_id", "contact_id", "name", "email", "is_organizer", "created_at")


def booking_context(organization, credential=None) -> dict:
    """The presenter context for a request's credential; without one (events) e-mails are hidden."""
    can_read = bool(credential is not None and credential.has_scope("contacts:read"))
    return {"organization": organization, "can_read_contacts": can_read}


def booking_values(queryset):
    """The value rows `present_booking` reads (keeps the queryset's filters and ordering)."""
    return queryset.values(*BOOKING_COLUMNS)


def attach_players(rows: list[dict]) -> list[dict]:
    """Add `players` (organizer first, then by id) to each area booking row, in one query for the whole page."""
    area_ids = [row["id"] for row in rows if row["type"] == "area"]
    by_booking = defaultdict(list)
    if area_ids:
        players = (
            Player.objects.filter(booking_id__in=area_ids)
            .order_by("booking_id", "-is_organizer", "id")
            .values(*PLAYER_COLUMNS)
        )
        for player in players:
            by_booking[player["booking_id"]].append(player)
    for row in rows:
        row["players"] = by_booking.get(row["id"], [])
    return rows


def booking_rows(queryset) -> list[dict]:
    """Value rows with their players, ready for `present_booking`."""
    return attach_players(list(booking_values(queryset)))


def contact_name(first_name, last_name) -> str | None:
    """`Contact.name` from its columns; None when there is no contact."""
    if first_name is None and last_name is None:
        return None
    return " ".join(p for p in (first_name, last_name) if p)


def present_payment(row) -> dict:
    """The `payment` object shared by the Booking and the Class booking (roster row) shapes."""
    paid, refunded = row["paid_amount"], row["refunded_amount"]
    return {
        "status": row["payment_status"],
        "amount": money(row["payment_amount"]),
        "paidAmount": money(paid) if paid is not None else 0.0,
        "refundedAmount": money(refunded) if refunded is not None else 0.0,
        "reference": row["payment_reference"],
        "fee": money(row["payment_fee"]),
    }


def present_player(player, ctx) -> dict:
    """A Player from a value row or a model instance."""
    if not isinstance(player, dict):
        player = {name: getattr(player, name) for name in PLAYER_COLUMNS}
    return {
        "id": player["id"],
        "contactId": player["contact_id"],
        "name": player["name"],
        "email": player["email"] if ctx.get("can_read_contacts") else None,
        "isOrganizer": player["is_organizer"],
        "createdAt": player["created_at"],
    }


def present_booking(row, ctx) -> dict:
    """API.md §6 Booking, from a row of `booking_rows`."""
    organization = ctx["organization"]
    if row["type"] == "area":
        players = [present_player(p, ctx) for p in row["players"]]
        player_count = len(players)
    else:
        players = []
        player_count = 1
    area_id, contact_id = row["area_id"], row["contact_id"]
    return {
        "id": row["id"],
        "type": row["type"],
        "status": row["status"],
        "clubId": row["club_id"],
        "areaId": area_id,
        "area": {"id": area_id, "name": row["area__name"]} if area_id is not None else None,
        "classId": row["class_occurrence_id"],
        "eventId": row["event_id"],
        "contactId": contact_id,
        "contactName": contact_name(row["contact__first_name"], row["contact__last_name"]) if contact_id else None,
        "contactEmail": row["contact__email"] if contact_id and ctx.get("can_read_contacts") else None,
        "bookerName": row["booker_name"],
        "startTime": row["start_time"],
        "endTime": row["end_time"],
        "durationMinutes": int((row["end_time"] - row["start_time"]).total_seconds() // 60),
        "sport": row["sport"],
        "players": players,
        "playerCount": player_count,
        "priceBeforeTax": money(row["price_before_tax"]),
        "price": organization.tax_inclusive(row["price_before_tax"]),
        "payment": present_payment(row),
        "membershipId": row["membership_id"],
        "entranceMethod": row["entrance_method"],
        "source": row["source"],
        "externalSource": row["external_source"],
        "externalId": row["external_id"],
        "checkedIn": row["checked_in_at"] is not None,
        "checkedInAt": row["checked_in_at"],
        "notes": row["notes"],
        "cancelledAt": row["cancelled_at"],
        "cancellationReason": row["cancellation_reason"],
        "createdAt": row["created_at"],
        "updatedAt": row["updated_at"],
    }
