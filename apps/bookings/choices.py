"""The enums of bookings, waitlists and check-ins: one declaration each, used by models, validation, filters and
the OpenAPI document (`SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"]`)."""

from django.db import models


class BookingType(models.TextChoices):
    AREA = "area", "Area"
    CLASS = "class", "Class"
    EVENT = "event", "Event"


# What a partner channel may book.
CHANNEL_BOOKING_TYPES = [(t.value, t.label) for t in (BookingType.AREA, BookingType.CLASS)]


class BookingStatus(models.TextChoices):
    CONFIRMED = "confirmed", "Confirmed"
    PENDING = "pending", "Pending"
    CHECKED_IN = "checked_in", "Checked in"
    CANCELLED = "cancelled", "Cancelled"


# The statuses a booking is created or updated with; check-in and cancellation have their own endpoints.
WRITABLE_BOOKING_STATUSES = [(s.value, s.label) for s in (BookingStatus.CONFIRMED, BookingStatus.PENDING)]
# A booking in one of these holds its area or class seat.
ACTIVE_BOOKING_STATUSES = (BookingStatus.PENDING, BookingStatus.CONFIRMED, BookingStatus.CHECKED_IN)
# A booking in one of these may still be cancelled, moved or checked in.
OPEN_BOOKING_STATUSES = (BookingStatus.PENDING, BookingStatus.CONFIRMED)


class PaymentStatus(models.TextChoices):
    PAID = "paid", "Paid"
    UNPAID = "unpaid", "Unpaid"
    NO_CHARGE = "no_charge", "No charge"


class EntranceMethod(models.TextChoices):
    DIRECT_PAYMENT = "direct_payment", "Direct payment"
    MEMBERSHIP = "membership", "Membership"
    EXTERNAL_PROGRAM = "external_program", "External program"


class WaitlistStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    NOTIFIED = "notified", "Notified"
    PROMOTED = "promoted", "Promoted"
    REMOVED = "removed", "Removed"
    EXPIRED = "expired", "Expired"


# An entry in one of these still waits for a seat.
ACTIVE_WAITLIST_STATUSES = (WaitlistStatus.PENDING, WaitlistStatus.NOTIFIED)


class CheckInMethod(models.TextChoices):
    BOOKING = "booking", "Booking"
    MEMBERSHIP = "membership", "Membership"
