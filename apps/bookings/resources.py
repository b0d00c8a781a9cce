"""Booking, player, class booking (roster row), waitlist entry and check-in shapes.

Value rows with the area and contact columns joined; a booking page loads its area bookings' players in one more
query. Embedded contact e-mails are null unless the caller holds `contacts:read` (declared with `RequiresScope`);
event payloads are presented with every scope and narrowed per reader (webhooks, the event feed).
"""

import datetime as dt
from collections import defaultdict
from typing import Annotated, TypedDict

from apps.api.presenters import number
from apps.api.resources import Describe, Email, PresentContext, RequiresScope, Resource
from apps.contacts.resources import CONTACT_EMAIL_HELP, contact_email, contact_name

from . import models
from .choices import BookingStatus, BookingType, CheckInMethod, EntranceMethod, PaymentStatus, WaitlistStatus


class Payment(TypedDict):
    status: PaymentStatus
    amount: float | None
    paidAmount: Annotated[float, Describe("Gross collected before refunds, 0 when none.")]
    refundedAmount: Annotated[float, Describe("Total across refunds; kept = paid - refunded.")]
    reference: Annotated[str | None, Describe("The collecting partner's own payment id.")]
    fee: Annotated[float | None, Describe("What the partner kept.")]


PAYMENT_COLUMNS = (
    "payment_status",
    "payment_amount",
    "paid_amount",
    "refunded_amount",
    "payment_reference",
    "payment_fee",
)


def present_payment(row) -> Payment:
    """The `payment` object of the Booking and the Class booking shapes."""
    paid, refunded = row["paid_amount"], row["refunded_amount"]
    return {
        "status": row["payment_status"],
        "amount": number(row["payment_amount"]),
        "paidAmount": number(paid) if paid is not None else 0.0,
        "refundedAmount": number(refunded) if refunded is not None else 0.0,
        "reference": row["payment_reference"],
        "fee": number(row["payment_fee"]),
    }


class Player(TypedDict):
    id: int
    contactId: int | None
    name: str
    email: Annotated[Email | None, Describe(CONTACT_EMAIL_HELP), RequiresScope("contacts:read")]
    isOrganizer: bool
    createdAt: dt.datetime


class PlayerResource(Resource):
    shape = Player
    model = models.Player
    columns = ("booking_id",)

    def present(self, row: dict, ctx: PresentContext) -> Player:
        return self.body(row, ctx, email=row["email"] if ctx.allows("contacts:read") else None)


PLAYER = PlayerResource()


class BookingAreaRef(TypedDict):
    id: int
    name: str


class Booking(TypedDict):
    id: int
    type: BookingType
    status: BookingStatus
    clubId: int
    areaId: int | None
    area: BookingAreaRef | None
    classId: int | None
    eventId: int | None
    contactId: int | None
    contactName: str | None
    contactEmail: Annotated[Email | None, Describe(CONTACT_EMAIL_HELP), RequiresScope("contacts:read")]
    bookerName: str | None
    startTime: dt.datetime
    endTime: dt.datetime
    durationMinutes: int
    sport: str | None
    players: list[Player]
    playerCount: int
    priceBeforeTax: float | None
    price: Annotated[float | None, Describe("Tax-inclusive, computed.")]
    payment: Payment
    membershipId: int | None
    entranceMethod: str | None
    source: str | None
    externalSource: str | None
    externalId: str | None
    checkedIn: bool
    checkedInAt: dt.datetime | None
    notes: str | None
    cancelledAt: dt.datetime | None
    cancellationReason: str | None
    createdAt: dt.datetime
    updatedAt: dt.datetime


class BookingResource(Resource):
    shape = Booking
    model = models.Booking
    columns = (
        "area__name",
        "class_occurrence_id",
        "contact__first_name",
        "contact__last_name",
        "contact__email",
        *PAYMENT_COLUMNS,
    )

    def load(self, rows, ctx: PresentContext) -> None:
        """The players of the page's area bookings (organizer first, then by id), in one query."""
        area_ids = [row["id"] for row in rows if row["type"] == BookingType.AREA]
        by_booking = defaultdict(list)
        if area_ids:
            players = models.Player.objects.filter(booking_id__in=area_ids)
            for player in players.order_by("booking_id", "-is_organizer", "id").values(*PLAYER.value_columns):
                by_booking[player["booking_id"]].append(PLAYER.present(player, ctx))
        ctx.memo["booking.players"] = by_booking

    def present(self, row: dict, ctx: PresentContext) -> Booking:
        if row["type"] == BookingType.AREA:
            players = ctx.memo["booking.players"].get(row["id"], [])
            player_count = len(players)
        else:
            players = []
            player_count = 1
        area_id = row["area_id"]
        return self.body(
            row,
            ctx,
            areaId=area_id,
            area={"id": area_id, "name": row["area__name"]} if area_id is not None else None,
            classId=row["class_occurrence_id"],
            contactName=contact_name(row),
            contactEmail=contact_email(row, ctx),
            durationMinutes=int((row["end_time"] - row["start_time"]).total_seconds() // 60),
            players=players,
            playerCount=player_count,
            price=number(ctx.organization.tax_inclusive(row["price_before_tax"])),
            payment=present_payment(row),
            checkedIn=row["checked_in_at"] is not None,
        )


class ClassBooking(TypedDict):
    """One roster row per person."""

    bookingId: int
    classId: int
    contactId: Annotated[int | None, Describe("Null for an anonymous seat.")]
    contactName: str | None
    bookerName: Annotated[str | None, Describe("Who paid, for an anonymous seat sold in an order.")]
    contactEmail: Annotated[str | None, Describe(CONTACT_EMAIL_HELP), RequiresScope("contacts:read")]
    status: BookingStatus
    source: str | None
    startTime: dt.datetime
    endTime: dt.datetime
    checkedIn: bool
    checkedInAt: dt.datetime | None
    membershipId: int | None
    entranceMethod: EntranceMethod | None
    payment: Payment
    notes: str | None
    createdAt: dt.datetime


CONTACT_COLUMNS = ("contact_id", "contact__first_name", "contact__last_name", "contact__email")


class ClassBookingResource(Resource):
    shape = ClassBooking
    model = models.Booking
    columns = ("id", "class_occurrence_id", *CONTACT_COLUMNS, *PAYMENT_COLUMNS)

    def present(self, row: dict, ctx: PresentContext) -> ClassBooking:
        return self.body(
            row,
            ctx,
            bookingId=row["id"],
            classId=row["class_occurrence_id"],
            contactName=contact_name(row),
            contactEmail=contact_email(row, ctx),
            checkedIn=row["checked_in_at"] is not None,
            payment=present_payment(row),
        )


class WaitlistEntry(TypedDict):
    id: int
    classId: int
    contactId: int
    contactName: str | None
    contactEmail: Annotated[str | None, Describe(CONTACT_EMAIL_HELP), RequiresScope("contacts:read")]
    position: int
    status: WaitlistStatus
    bookingId: int | None
    notes: str | None
    notifiedAt: dt.datetime | None
    createdAt: dt.datetime


class WaitlistEntryResource(Resource):
    shape = WaitlistEntry
    model = models.WaitlistEntry
    columns = ("class_occurrence_id", *CONTACT_COLUMNS)

    def present(self, row: dict, ctx: PresentContext) -> WaitlistEntry:
        return self.body(
            row,
            ctx,
            classId=row["class_occurrence_id"],
            contactName=contact_name(row),
            contactEmail=contact_email(row, ctx),
        )


class CheckIn(TypedDict):
    id: int
    method: CheckInMethod
    bookingId: int | None
    membershipId: int | None
    classId: int | None
    clubId: int
    contactId: int | None
    contactName: str | None
    source: str
    checkedInAt: dt.datetime
    createdAt: dt.datetime


class CheckInResource(Resource):
    shape = CheckIn
    model = models.CheckIn
    columns = ("class_occurrence_id", "contact__first_name", "contact__last_name")

    def present(self, row: dict, ctx: PresentContext) -> CheckIn:
        return self.body(row, ctx, classId=row["class_occurrence_id"], contactName=contact_name(row))


BOOKING = BookingResource()
CLASS_BOOKING = ClassBookingResource()
WAITLIST_ENTRY = WaitlistEntryResource()
CHECK_IN = CheckInResource()
BOOKING_LOCATION = "/v1/platform/bookings/{pk}"  # where a booking lives, whichever collection created it


def waitlist_event_data(entry_id):
    """The WaitlistEntry for `waitlist.*` events, built from the stored row."""
    return lambda: WAITLIST_ENTRY.event_body(None, entry_id)
