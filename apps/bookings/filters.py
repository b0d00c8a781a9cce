"""Query parameters of the bookings, roster, waitlist and check-ins lists."""

from apps.api.filtersets import (
    BooleanFilter,
    ChoiceListFilter,
    DateWindow,
    IntegerFilter,
    Ordering,
    PlatformFilterSet,
    QueryFilter,
)

from .choices import BookingStatus, BookingType, CheckInMethod, WaitlistStatus

# The `status` filter of the bookings list names the allowed values in this order (not the declaration order).
BOOKING_STATUSES = (BookingStatus.PENDING, BookingStatus.CONFIRMED, BookingStatus.CHECKED_IN, BookingStatus.CANCELLED)


class AnyOfFilter(QueryFilter):
    """`source=api,channel`: rows whose value is any of the comma list (values are not checked)."""

    def parse(self, raw):
        return [value.strip() for value in (raw or "").split(",") if value.strip()] or None

    def apply(self, qs, values):
        return qs.filter(**{f"{self.field_name}__in": values})


class BookingFilterSet(PlatformFilterSet):
    type = ChoiceListFilter("type", choices=BookingType)
    status = ChoiceListFilter(
        "status", choices=BOOKING_STATUSES, help_text="Comma list of pending, confirmed, checked_in, cancelled."
    )
    clubId = IntegerFilter("club_id")
    areaId = IntegerFilter("area_id")
    classId = IntegerFilter("class_occurrence_id")
    eventId = IntegerFilter("event_id")
    contactId = IntegerFilter("contact_id")
    source = AnyOfFilter("source", help_text="Comma list (api, channel, admin, portal, ...).")
    externalSource = QueryFilter("external_source")
    externalId = QueryFilter("external_id")

    date_window = DateWindow(
        "start_time",
        club_clock=True,
        start_help="On startTime, inclusive. A bare date is a whole day on the club's clock (`clubId`), "
        "else on the organization's timezone.",
        end_help="On startTime, inclusive.",
    )
    ordering = Ordering(
        {"startTime": "start_time", "createdAt": "created_at"},
        default="startTime",
        help_text="`startTime` (default) or `createdAt`, `-` for descending.",
    )


class PlayerFilterSet(PlatformFilterSet):
    order_by = ("-is_organizer", "id")


class RosterFilterSet(PlatformFilterSet):
    status = ChoiceListFilter(
        "status",
        choices=BookingStatus,
        help_text="Comma list: confirmed, pending, checked_in, cancelled.",
    )
    checkedIn = BooleanFilter("checked_in_at", method="with_check_in")

    order_by = ("created_at", "id")

    def with_check_in(self, queryset, name, checked_in):
        return queryset.filter(checked_in_at__isnull=not checked_in)


class WaitlistFilterSet(PlatformFilterSet):
    status = ChoiceListFilter(
        "status", choices=WaitlistStatus, help_text="Comma list: " + ", ".join(WaitlistStatus.values)
    )

    order_by = ("position", "id")


class CheckInFilterSet(PlatformFilterSet):
    clubId = IntegerFilter("club_id")
    classId = IntegerFilter("class_occurrence_id")
    bookingId = IntegerFilter("booking_id")
    contactId = IntegerFilter("contact_id")
    membershipId = IntegerFilter("membership_id")
    method = ChoiceListFilter("method", choices=CheckInMethod, help_text="Comma list: booking, membership.")

    date_window = DateWindow("checked_in_at", club_clock=True, start_help="", end_help="")
    ordering = Ordering(
        {"checkedInAt": "checked_in_at", "createdAt": "created_at"},
        default="-checkedInAt",
        help_text="checkedInAt, createdAt (prefix `-` for descending).",
    )
