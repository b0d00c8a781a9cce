from django.contrib.postgres.fields import RangeBoundary, RangeOperators
from django.db import models
from django.db.models import Q

from apps.kernel.ranges import TsTzRange

from .choices import ACTIVE_BOOKING_STATUSES, BookingStatus, BookingType, CheckInMethod, PaymentStatus, WaitlistStatus
from .constraints import PostgresOnlyExclusionConstraint

# Players of one area booking, the organizer included, whatever the area type's `max_players` says.
MAX_PLAYERS_PER_BOOKING = 50


class Booking(models.Model):
    """A booking of an area (court), a seat in a class occurrence, or an event ticket."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE, related_name="bookings")
    type = models.CharField(max_length=10, choices=BookingType.choices)
    status = models.CharField(max_length=12, choices=BookingStatus.choices, default=BookingStatus.CONFIRMED)
    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="bookings")
    area = models.ForeignKey("clubs.Area", null=True, blank=True, on_delete=models.PROTECT, related_name="bookings")
    class_occurrence = models.ForeignKey(
        "classes.ClassOccurrence", null=True, blank=True, on_delete=models.PROTECT, related_name="bookings"
    )
    event = models.ForeignKey("events.Event", null=True, blank=True, on_delete=models.PROTECT, related_name="bookings")
    # The ticket type an event booking was sold on (its price); null for area and class bookings.
    event_ticket = models.ForeignKey(
        "events.EventTicket", null=True, blank=True, on_delete=models.PROTECT, related_name="bookings"
    )
    contact = models.ForeignKey(
        "contacts.Contact", null=True, blank=True, on_delete=models.PROTECT, related_name="bookings"
    )
    booker_name = models.CharField(max_length=200, null=True, blank=True)
    start_time = models.DateTimeField()
    end_time = models.DateTimeField()
    sport = models.CharField(max_length=60, null=True, blank=True)
    price_before_tax = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    payment_status = models.CharField(max_length=10, choices=PaymentStatus.choices, default=PaymentStatus.UNPAID)
    payment_amount = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    paid_amount = models.DecimalField(max_digits=10, decimal_places=2, default=0)
    refunded_amount = models.DecimalField(max_digits=10, decimal_places=2, default=0)
    payment_reference = models.CharField(max_length=255, null=True, blank=True)
    payment_fee = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    paid_at = models.DateTimeField(null=True, blank=True)
    membership = models.ForeignKey(
        "memberships.Membership", null=True, blank=True, on_delete=models.SET_NULL, related_name="bookings"
    )
    entrance_method = models.CharField(max_length=20, null=True, blank=True)
    source = models.CharField(max_length=20, default="api")
    external_source = models.CharField(max_length=40, null=True, blank=True)
    external_id = models.CharField(max_length=100, null=True, blank=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    notes = models.TextField(null=True, blank=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    cancellation_reason = models.TextField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["start_time", "id"]
        indexes = [
            models.Index(fields=["organization", "start_time", "id"]),
            # `ordering=-createdAt` pages through a large organization's bookings without sorting them all.
            models.Index(fields=["organization", "created_at", "id"], name="booking_org_created"),
            # One club's bookings in a window (the club calendar, `clubId` + dates): counted without reading the
            # organization's other clubs' rows in that window.
            models.Index(fields=["organization", "club", "start_time"], name="booking_org_club_start"),
            models.Index(fields=["class_occurrence", "status"]),
            models.Index(fields=["area", "start_time"]),
            models.Index(fields=["contact", "status"]),
            models.Index(fields=["event", "status"]),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["organization", "external_source", "external_id"],
                condition=Q(external_source__isnull=False),
                name="uniq_booking_external_id",
            ),
            models.CheckConstraint(condition=Q(end_time__gt=models.F("start_time")), name="booking_end_after_start"),
            # Beside the Area row lock the services take: two active area bookings of one area never overlap.
            PostgresOnlyExclusionConstraint(
                name="booking_area_no_overlap",
                expressions=[
                    ("area", RangeOperators.EQUAL),
                    (TsTzRange("start_time", "end_time", RangeBoundary()), RangeOperators.OVERLAPS),
                ],
                condition=Q(type=BookingType.AREA) & Q(area__isnull=False) & Q(status__in=ACTIVE_BOOKING_STATUSES),
            ),
        ]

    @property
    def checked_in(self) -> bool:
        return self.checked_in_at is not None


class Player(models.Model):
    """A participant of an area booking; the organizer is the booking's contact."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE)
    booking = models.ForeignKey(Booking, on_delete=models.CASCADE, related_name="players")
    contact = models.ForeignKey("contacts.Contact", null=True, blank=True, on_delete=models.SET_NULL)
    name = models.CharField(max_length=200)
    email = models.EmailField(null=True, blank=True)
    is_organizer = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-is_organizer", "id"]


class WaitlistEntry(models.Model):
    """A contact waiting for a seat in a full class occurrence."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE)
    class_occurrence = models.ForeignKey(
        "classes.ClassOccurrence", on_delete=models.CASCADE, related_name="waitlist_entries"
    )
    contact = models.ForeignKey("contacts.Contact", on_delete=models.CASCADE, related_name="waitlist_entries")
    position = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=WaitlistStatus.choices, default=WaitlistStatus.PENDING)
    booking = models.ForeignKey(Booking, null=True, blank=True, on_delete=models.SET_NULL)
    notes = models.TextField(null=True, blank=True)
    notified_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["position", "id"]
        verbose_name_plural = "waitlist entries"
        indexes = [models.Index(fields=["class_occurrence", "status"])]


class CheckIn(models.Model):
    """An arrival: of a booking, or a walk-in on a membership (optionally into a class)."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE)
    method = models.CharField(max_length=12, choices=CheckInMethod.choices)
    booking = models.ForeignKey(Booking, null=True, blank=True, on_delete=models.SET_NULL, related_name="checkins")
    membership = models.ForeignKey("memberships.Membership", null=True, blank=True, on_delete=models.SET_NULL)
    class_occurrence = models.ForeignKey(
        "classes.ClassOccurrence", null=True, blank=True, on_delete=models.SET_NULL, related_name="checkins"
    )
    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE)
    contact = models.ForeignKey("contacts.Contact", null=True, blank=True, on_delete=models.SET_NULL)
    source = models.CharField(max_length=20, default="api")
    checked_in_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-checked_in_at", "-id"]
        indexes = [models.Index(fields=["class_occurrence", "method"])]
