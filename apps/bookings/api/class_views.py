"""Class roster, booking into a class, waitlist and check-ins. Views stay thin: parse, call a
service, present."""

from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework.routers import SimpleRouter

from apps.api.ratelimit import BOOK_INTO_CLASS
from apps.api.views import (
    CreateResourceMixin,
    DestroyResourceMixin,
    ListResourceMixin,
    ParentPathMixin,
    PlatformViewSet,
    ResourceViewSet,
    Writes,
)
from apps.classes.models import ClassOccurrence

from .. import checkins as checkin_services
from .. import class_services
from ..choices import BookingType
from ..filters import CheckInFilterSet, RosterFilterSet, WaitlistFilterSet
from ..models import Booking, CheckIn, WaitlistEntry
from ..resources import BOOKING_LOCATION, CHECK_IN, CLASS_BOOKING, WAITLIST_ENTRY
from .class_serializers import (
    CheckInCreateSerializer,
    ClassBookingCreateSerializer,
    WaitlistJoinSerializer,
    WaitlistPromoteSerializer,
)
from .views import BookingsOfParentMixin

CONFLICT = OpenApiResponse(description="Business rule conflict (`code` names which).")


class ClassPathMixin(ParentPathMixin):
    """`{id}` of `/classes/{id}/...`: an occurrence of the caller's organization (else 404)."""

    parent_model = ClassOccurrence
    parent_field = "class_occurrence"

    def parent_queryset(self):
        return super().parent_queryset().select_related("club", "class_type")


@extend_schema_view(
    list=extend_schema(
        operation_id="class_bookings_list",
        summary="Class roster",
        description="One row per person, every status, ordered by `createdAt` then `id`. A cancelled class keeps its "
        "roster. `contactEmail` is null unless the credential also holds `contacts:read`.",
        responses={200: CLASS_BOOKING.serializer},
        tags=["class bookings"],
    ),
    create=extend_schema(
        operation_id="class_bookings_create",
        summary="Book a customer into the class",
        description="One person per call. With `membershipId` the seat is drawn from the membership (`entranceMethod: "
        "membership`, payment `no_charge`); otherwise `direct_payment`, payment `unpaid` (or `no_charge` when the "
        "class is free). 409: CLASS_FULL, CLASS_CANCELLED, ALREADY_BOOKED, MEMBERSHIP_NOT_VALID.",
        responses={201: CLASS_BOOKING.serializer, 409: CONFLICT},
        tags=["class bookings"],
    ),
)
class ClassRosterViewSet(ClassPathMixin, BookingsOfParentMixin, PlatformViewSet):
    """The roster of a class occurrence and booking a customer into it."""

    booking_type = BookingType.CLASS
    resource = CLASS_BOOKING
    filterset_class = RosterFilterSet
    rate_buckets = {"create": BOOK_INTO_CLASS}
    write_serializer = ClassBookingCreateSerializer

    def create_object(self, data):
        return class_services.book_into_class(organization=self.organization, occurrence=self.get_parent(), **data)


@extend_schema_view(
    list=extend_schema(
        operation_id="class_waitlist_list",
        summary="Class waitlist",
        description="Entries ordered by `position`.",
        responses={200: WAITLIST_ENTRY.serializer},
        tags=["class bookings"],
    ),
    create=extend_schema(
        operation_id="class_waitlist_create",
        summary="Join the class waitlist",
        description="409: WAITLIST_NOT_ALLOWED, CLASS_NOT_FULL, CLASS_CANCELLED, ALREADY_BOOKED, ALREADY_ON_WAITLIST.",
        responses={201: WAITLIST_ENTRY.serializer, 409: CONFLICT},
        tags=["class bookings"],
    ),
    destroy=extend_schema(
        operation_id="class_waitlist_delete",
        summary="Remove a waitlist entry",
        description="The entry's status becomes `removed`. Only pending or notified entries can be removed.",
        responses={204: None, 409: CONFLICT},
        tags=["class bookings"],
    ),
)
class ClassWaitlistViewSet(
    ClassPathMixin, ListResourceMixin, CreateResourceMixin, DestroyResourceMixin, PlatformViewSet
):
    """The waitlist of a class occurrence: list, join, promote, remove."""

    queryset = WaitlistEntry.objects.all()
    resource = WAITLIST_ENTRY
    filterset_class = WaitlistFilterSet
    lookup_url_kwarg = "entryId"
    required_scopes = {
        "list": "bookings:read",
        "create": "bookings:write",
        "destroy": "bookings:write",
        "promote": "bookings:write",
    }
    rate_buckets = {"promote": BOOK_INTO_CLASS}
    write_serializer = WaitlistJoinSerializer
    writes = Writes(delete=class_services.remove_waitlist_entry)

    def create_object(self, data):
        return class_services.join_waitlist(organization=self.organization, occurrence=self.get_parent(), **data)

    @extend_schema(
        operation_id="class_waitlist_promote",
        summary="Promote a waitlist entry into a booking",
        description="Books the entry's contact (CLASS_FULL when no spot is free) and sets the entry to `promoted`.",
        request=WaitlistPromoteSerializer,
        responses={201: CLASS_BOOKING.serializer, 409: CONFLICT},
        tags=["class bookings"],
    )
    def promote(self, request, id, entryId):
        entry = self.get_object()
        serializer = WaitlistPromoteSerializer(data=request.data or {}, context={"request": request})
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        booking = class_services.promote_waitlist_entry(
            entry, membership=data.get("membership"), notes=data.get("notes"), notify_customer=data["notify_customer"]
        )
        body = CLASS_BOOKING.get(Booking.objects.all(), booking.pk, self.present_context())
        return self.created(body, location=BOOKING_LOCATION.format(pk=booking.pk))


@extend_schema_view(
    list=extend_schema(
        operation_id="checkins_list",
        summary="List check-ins",
        description="Default ordering `-checkedInAt`. `startDate`/`endDate` (inclusive) filter `checkedInAt`; a bare "
        "date is a whole day on the club's clock (the `clubId`/`classId` filter's club, else the organization's).",
        responses={200: CHECK_IN.serializer},
        tags=["checkins"],
    ),
    retrieve=extend_schema(
        operation_id="checkins_get", summary="Get a check-in", responses={200: CHECK_IN.serializer}, tags=["checkins"]
    ),
    create=extend_schema(
        operation_id="checkins_create",
        summary="Check in a booking or a walk-in on a membership",
        description="Exactly one of `bookingId` or `membershipId` (with `classId`, or `clubId` without a class). "
        "409: ALREADY_CHECKED_IN, INVALID_STATE_TRANSITION, MEMBERSHIP_NOT_VALID, CLASS_FULL.",
        responses={201: CHECK_IN.serializer, 409: CONFLICT},
        tags=["checkins"],
    ),
)
class CheckInViewSet(CreateResourceMixin, ResourceViewSet):
    """Check-ins: of a booking, or a walk-in on a membership. No updates and no undo."""

    queryset = CheckIn.objects.all()
    resource = CHECK_IN
    filterset_class = CheckInFilterSet
    required_scopes = {"list": "checkins:read", "retrieve": "checkins:read", "create": "checkins:write"}
    write_serializer = CheckInCreateSerializer

    def create_object(self, data):
        if data.get("booking") is not None:
            return checkin_services.check_in_booking(
                organization=self.organization, booking=data["booking"], checked_in_at=data.get("checked_in_at")
            )
        return checkin_services.check_in_walk_in(
            organization=self.organization,
            membership=data["membership"],
            occurrence=data.get("occurrence"),
            club=data.get("club"),
            checked_in_at=data.get("checked_in_at"),
        )


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
