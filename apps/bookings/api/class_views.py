"""Class roster, booking into a class, waitlist and check-ins (API.md §5.3, §5.6). Views stay thin: parse, call a
service, present."""

from django.urls import path
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.response import Response
from rest_framework.routers import SimpleRouter

from apps.api.exceptions import NotFound
from apps.api.filters import (
    apply_club_clock_window,
    apply_ordering,
    parse_bool,
    parse_enum_list,
    parse_int,
)
from apps.api.views import MAX_DB_ID, PlatformViewSet
from apps.classes.models import ClassOccurrence

from .. import checkins as checkin_services
from .. import class_services
from ..models import Booking, CheckIn, WaitlistEntry
from ..roster import (
    CHECKIN_COLUMNS,
    CLASS_BOOKING_COLUMNS,
    WAITLIST_COLUMNS,
    first_row,
    present_checkin,
    present_class_booking,
    present_waitlist_entry,
    presenter_context,
)
from .class_serializers import (
    CheckInCreateSerializer,
    CheckInResponse,
    ClassBookingCreateSerializer,
    ClassBookingResponse,
    WaitlistEntryResponse,
    WaitlistJoinSerializer,
    WaitlistPromoteSerializer,
)

BOOKING_STATUSES = ("confirmed", "pending", "checked_in", "cancelled")
WAITLIST_STATUSES = ("pending", "notified", "promoted", "removed", "expired")
CHECKIN_METHODS = ("booking", "membership")
BOOK_INTO_CLASS = "book-into-class"

CONFLICT = OpenApiResponse(description="Business rule conflict (`code` names which).")


def _path_id(value) -> int:
    value = int(value)
    if value > MAX_DB_ID:
        raise NotFound()
    return value


class ClassPathMixin:
    """Resolves `{id}` of `/classes/{id}/...` to an occurrence of the caller's organization (else 404)."""

    def get_occurrence(self) -> ClassOccurrence:
        occurrence = (
            ClassOccurrence.objects.select_related("club", "class_type")
            .filter(organization=self.organization, pk=_path_id(self.kwargs["id"]))
            .first()
        )
        if occurrence is None:
            raise NotFound()
        return occurrence


class ClassRosterViewSet(ClassPathMixin, PlatformViewSet):
    """The roster of a class occurrence and booking a customer into it."""

    queryset = Booking.objects.all()
    required_scopes = {"list": "bookings:read", "create": "bookings:write"}
    rate_buckets = {"create": BOOK_INTO_CLASS}

    def base_queryset(self):
        return Booking.objects.filter(type="class")

    @extend_schema(
        operation_id="class_bookings_list",
        summary="Class roster",
        description="One row per person, every status, ordered by `createdAt` then `id`. A cancelled class keeps its "
        "roster. `contactEmail` is null unless the credential also holds `contacts:read`.",
        parameters=[
            OpenApiParameter("status", str, description="Comma list: confirmed, pending, checked_in, cancelled."),
            OpenApiParameter("checkedIn", bool),
        ],
        responses={200: ClassBookingResponse},
        tags=["class bookings"],
    )
    def list(self, request, id):
        occurrence = self.get_occurrence()
        params = request.query_params
        queryset = self.get_queryset().filter(class_occurrence=occurrence)
        statuses = parse_enum_list(params, "status", BOOKING_STATUSES)
        if statuses:
            queryset = queryset.filter(status__in=statuses)
        checked_in = parse_bool(params, "checkedIn")
        if checked_in is not None:
            queryset = queryset.filter(checked_in_at__isnull=not checked_in)
        queryset = queryset.order_by("created_at", "id").values(*CLASS_BOOKING_COLUMNS)
        page = self.paginate_queryset(queryset)
        ctx = presenter_context(request)
        return self.get_paginated_response([present_class_booking(b, ctx) for b in page])

    @extend_schema(
        operation_id="class_bookings_create",
        summary="Book a customer into the class",
        description="One person per call. With `membershipId` the seat is drawn from the membership (`entranceMethod: "
        "membership`, payment `no_charge`); otherwise `direct_payment`, payment `unpaid` (or `no_charge` when the "
        "class is free). 409: CLASS_FULL, CLASS_CANCELLED, ALREADY_BOOKED, MEMBERSHIP_NOT_VALID.",
        request=ClassBookingCreateSerializer,
        responses={201: ClassBookingResponse, 409: CONFLICT},
        tags=["class bookings"],
    )
    def create(self, request, id):
        occurrence = self.get_occurrence()
        data = self.validated(ClassBookingCreateSerializer)
        booking = class_services.book_into_class(
            organization=self.organization,
            occurrence=occurrence,
            contact=data["contact"],
            membership=data.get("membership"),
            status=data["status"],
            notes=data.get("notes"),
            source="api",
            notify_customer=data["notify_customer"],
        )
        row = first_row(Booking.objects.filter(pk=booking.pk), CLASS_BOOKING_COLUMNS)
        body = present_class_booking(row, presenter_context(request))
        return self.created(body, location=f"/v1/platform/bookings/{booking.pk}")


class ClassWaitlistViewSet(ClassPathMixin, PlatformViewSet):
    """The waitlist of a class occurrence: list, join, promote, remove."""

    queryset = WaitlistEntry.objects.all()
    required_scopes = {
        "list": "bookings:read",
        "create": "bookings:write",
        "destroy": "bookings:write",
        "promote": "bookings:write",
    }
    rate_buckets = {"promote": BOOK_INTO_CLASS}

    def base_queryset(self):
        return WaitlistEntry.objects.all()

    def get_entry(self, occurrence) -> WaitlistEntry:
        entry = self.get_queryset().filter(class_occurrence=occurrence, pk=_path_id(self.kwargs["entryId"])).first()
        if entry is None:
            raise NotFound()
        return entry

    @extend_schema(
        operation_id="class_waitlist_list",
        summary="Class waitlist",
        description="Entries ordered by `position`.",
        parameters=[OpenApiParameter("status", str, description="Comma list: " + ", ".join(WAITLIST_STATUSES))],
        responses={200: WaitlistEntryResponse},
        tags=["class bookings"],
    )
    def list(self, request, id):
        occurrence = self.get_occurrence()
        queryset = self.get_queryset().filter(class_occurrence=occurrence)
        statuses = parse_enum_list(request.query_params, "status", WAITLIST_STATUSES)
        if statuses:
            queryset = queryset.filter(status__in=statuses)
        page = self.paginate_queryset(queryset.order_by("position", "id").values(*WAITLIST_COLUMNS))
        ctx = presenter_context(request)
        return self.get_paginated_response([present_waitlist_entry(e, ctx) for e in page])

    @extend_schema(
        operation_id="class_waitlist_create",
        summary="Join the class waitlist",
        description="409: WAITLIST_NOT_ALLOWED, CLASS_NOT_FULL, CLASS_CANCELLED, ALREADY_BOOKED, ALREADY_ON_WAITLIST.",
        request=WaitlistJoinSerializer,
        responses={201: WaitlistEntryResponse, 409: CONFLICT},
        tags=["class bookings"],
    )
    def create(self, request, id):
        occurrence = self.get_occurrence()
        validated_data = self.validated(WaitlistJoinSerializer)
        entry = class_services.join_waitlist(
            organization=self.organization,
            occurrence=occurrence,
            contact=validated_data["contact"],
            notes=validated_data.get("notes"),
        )
        row = first_row(WaitlistEntry.objects.filter(pk=entry.pk), WAITLIST_COLUMNS)
        return self.created(present_waitlist_entry(row, presenter_context(request)), entry)

    @extend_schema(
        operation_id="class_waitlist_promote",
        summary="Promote a waitlist entry into a booking",
        description="Books the entry's contact (CLASS_FULL when no spot is free) and sets the entry to `promoted`.",
        request=WaitlistPromoteSerializer,
        responses={201: ClassBookingResponse, 409: CONFLICT},
        tags=["class bookings"],
    )
    def promote(self, request, id, entryId):
        occurrence = self.get_occurrence()
        entry = self.get_entry(occurrence)
        serializer = WaitlistPromoteSerializer(data=request.data or {}, context={"request": request})
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        booking = class_services.promote_waitlist_entry(
            entry, membership=data.get("membership"), notes=data.get("notes"), notify_customer=data["notify_customer"]
        )
        row = first_row(Booking.objects.filter(pk=booking.pk), CLASS_BOOKING_COLUMNS)
        body = present_class_booking(row, presenter_context(request))
        return self.created(body, location=f"/v1/platform/bookings/{booking.pk}")

    @extend_schema(
        operation_id="class_waitlist_delete",
        summary="Remove a waitlist entry",
        description="The entry's status becomes `removed`. Only pending or notified entries can be removed.",
        responses={204: None, 409: CONFLICT},
        tags=["class bookings"],
    )
    def destroy(self, request, id, entryId):
        occurrence = self.get_occurrence()
        class_services.remove_waitlist_entry(self.get_entry(occurrence))
        return Response(status=204)


class CheckInViewSet(PlatformViewSet):
    """Check-ins: of a booking, or a walk-in on a membership. No updates, no undo (API.md §10.15)."""

    queryset = CheckIn.objects.all()
    required_scopes = {"list": "checkins:read", "retrieve": "checkins:read", "create": "checkins:write"}
    ordering_fields = {"checkedInAt": "checked_in_at", "createdAt": "created_at"}

    def base_queryset(self):
        return CheckIn.objects.all()

    @extend_schema(
        operation_id="checkins_list",
        summary="List check-ins",
        description="Default ordering `-checkedInAt`. `startDate`/`endDate` (inclusive) filter `checkedInAt`; a bare "
        "date is a whole day on the club's clock (the `clubId`/`classId` filter's club, else the organization's).",
        parameters=[
            OpenApiParameter("clubId", int),
            OpenApiParameter("classId", int),
            OpenApiParameter("bookingId", int),
            OpenApiParameter("contactId", int),
            OpenApiParameter("membershipId", int),
            OpenApiParameter("method", str, description="Comma list: booking, membership."),
            OpenApiParameter("startDate", str),
            OpenApiParameter("endDate", str),
            OpenApiParameter("ordering", str, description="checkedInAt, createdAt (prefix `-` for descending)."),
        ],
        responses={200: CheckInResponse},
        tags=["checkins"],
    )
    def list(self, request):
        params = request.query_params
        queryset = self.get_queryset()
        for param, field in (
            ("clubId", "club_id"),
            ("classId", "class_occurrence_id"),
            ("bookingId", "booking_id"),
            ("contactId", "contact_id"),
            ("membershipId", "membership_id"),
        ):
            value = parse_int(params, param)
            if value is not None:
                queryset = queryset.filter(**{field: value})
        methods = parse_enum_list(params, "method", CHECKIN_METHODS)
        if methods:
            queryset = queryset.filter(method__in=methods)
        queryset = apply_club_clock_window(queryset, params, self.organization.timezone, "checked_in_at")
        queryset = apply_ordering(queryset, params, self.ordering_fields, "-checkedInAt")
        page = self.paginate_queryset(queryset.values(*CHECKIN_COLUMNS))
        return self.get_paginated_response([present_checkin(row) for row in page])

    @extend_schema(operation_id="checkins_get", responses={200: CheckInResponse}, tags=["checkins"])
    def retrieve(self, request, pk=None):
        return Response(present_checkin(first_row(self.get_queryset().filter(pk=pk), CHECKIN_COLUMNS)))

    @extend_schema(
        operation_id="checkins_create",
        summary="Check in a booking or a walk-in on a membership",
        description="Exactly one of `bookingId` or `membershipId` (with `classId`, or `clubId` without a class). "
        "409: ALREADY_CHECKED_IN, INVALID_STATE_TRANSITION, MEMBERSHIP_NOT_VALID, CLASS_FULL.",
        request=CheckInCreateSerializer,
        responses={201: CheckInResponse, 409: CONFLICT},
        tags=["checkins"],
    )
    def create(self, request):
        data = self.validated(CheckInCreateSerializer)
        if data.get("booking") is not None:
            checkin = checkin_services.check_in_booking(
                organization=self.organization, booking=data["booking"], checked_in_at=data.get("checked_in_at")
            )
        else:
            checkin = checkin_services.check_in_walk_in(
                organization=self.organization,
                membership=data["membership"],
                occurrence=data.get("occurrence"),
                club=data.get("club"),
                checked_in_at=data.get("checked_in_at"),
            )
        return self.created(present_checkin(first_row(CheckIn.objects.filter(pk=checkin.pk), CHECKIN_COLUMNS)), checkin)


router = SimpleRouter(trailing_slash=False)
router.register("checkins", CheckInViewSet, basename="checkins")

urlpatterns = [
    path(
        "classes/<int:id>/bookings",
        ClassRosterViewSet.as_view({"get": "list", "post": "create"}),
        name="class-bookings",
    ),
    path(
        "classes/<int:id>/waitlist",
        ClassWaitlistViewSet.as_view({"get": "list", "post": "create"}),
        name="class-waitlist",
    ),
    path(
        "classes/<int:id>/waitlist/<int:entryId>",
        ClassWaitlistViewSet.as_view({"delete": "destroy"}),
        name="class-waitlist-entry",
    ),
    path(
        "classes/<int:id>/waitlist/<int:entryId>/promote",
        ClassWaitlistViewSet.as_view({"post": "promote"}),
        name="class-waitlist-promote",
    ),
    *router.urls,
]
