"""Bookings (any type), area/court booking writes, players, and the channel integration."""

import orjson
from django.urls import path, re_path
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.routers import SimpleRouter

from apps.api.ratelimit import BOOK_INTO_CLASS, BOOKING_WRITES
from apps.api.schema import crud_schema_view
from apps.api.scopes import crud_scopes
from apps.api.views import (
    CreateResourceMixin,
    DestroyResourceMixin,
    ListResourceMixin,
    ParentPathMixin,
    PlatformAPIView,
    PlatformViewSet,
    ResourceViewSet,
    UpdateResourceMixin,
)

from .. import channel, services
from ..choices import BookingType
from ..filters import BookingFilterSet, PlayerFilterSet
from ..models import Booking, Player
from ..resources import BOOKING, BOOKING_LOCATION, PLAYER
from .serializers import (
    AreaBookingCreateSerializer,
    BookingUpdateSerializer,
    CancelSerializer,
    ChannelBookingCreateSerializer,
    PaymentReportSerializer,
    PlayerInputSerializer,
)

ID_PARAM = OpenApiParameter("id", int, OpenApiParameter.PATH)
PLAYER_ID_PARAM = OpenApiParameter("playerId", int, OpenApiParameter.PATH)


class BookingsOfParentMixin(ParentPathMixin, ListResourceMixin, CreateResourceMixin):
    """The bookings of one class or event (`/classes/{id}/bookings`, `/events/{id}/bookings`): those of
    `booking_type` under the path's parent, listed, and one person booked per call by `create_object`; the new
    booking's `Location` is its own `/bookings/{id}`."""

    queryset = Booking.objects.all()
    booking_type: str
    required_scopes = {"list": "bookings:read", "create": "bookings:write"}
    created_location = BOOKING_LOCATION

    def base_queryset(self):
        return Booking.objects.filter(type=self.booking_type)


def cancel_as_asked(booking, data):
    """Cancel `booking` with a validated `CancelSerializer` body."""
    services.cancel_booking(
        booking, reason=data.get("reason") or None, notify_customer=data.get("notify_customer", False)
    )


@crud_schema_view(
    "bookings",
    tags=["bookings"],
    parameters={"retrieve": [ID_PARAM], "partial_update": [ID_PARAM]},
    summaries={
        "list": "List bookings (area, class and event)",
        "create": "Create an area booking",
        "partial_update": "Update or reschedule a booking",
    },
    descriptions={
        "create": "Creates an area (court) booking. Errors 409 SLOT_UNAVAILABLE, PLAYER_LIMIT_REACHED.",
        "partial_update": "Area bookings: reschedule (`areaId`, `startTime`, `endTime`; 409 SLOT_UNAVAILABLE), "
        "`priceBeforeTax`, `sport`, `notes`, `status`. Class bookings: `notes`, `status`, `classId` (move the seat; "
        "409 CLASS_FULL, ALREADY_BOOKED). `status` goes from `pending` to `confirmed` only. A cancelled booking is "
        "409 INVALID_STATE_TRANSITION.",
    },
    cancel=extend_schema(
        operation_id="bookings_cancel",
        summary="Cancel a booking",
        parameters=[ID_PARAM],
        request=CancelSerializer,
        responses=BOOKING.serializer,
        tags=["bookings"],
    ),
)
class BookingViewSet(CreateResourceMixin, UpdateResourceMixin, ResourceViewSet):
    """Every booking of the organization: area, class and event. Creates here are area bookings."""

    queryset = Booking.objects.all()
    resource = BOOKING
    filterset_class = BookingFilterSet
    required_scopes = crud_scopes("bookings", write=("create", "partial_update", "cancel"))
    rate_buckets = {"create": BOOKING_WRITES, "partial_update": BOOKING_WRITES, "cancel": BOOKING_WRITES}
    write_serializer = AreaBookingCreateSerializer
    update_serializer = BookingUpdateSerializer

    def create_object(self, data):
        match_emails = self.credential.has_scope("contacts:read")
        return services.create_area_booking(organization=self.organization, match_player_emails=match_emails, **data)

    def update_object(self, booking, data):
        changes = dict(data)
        notify = changes.pop("notify_customer", False)
        services.update_booking(booking, changes, notify_customer=notify)

    @action(detail=True, methods=["post"], url_path="cancel")
    def cancel(self, request, pk=None):
        booking = self.get_object()
        serializer = CancelSerializer(data=request.data or {})
        serializer.is_valid(raise_exception=True)
        cancel_as_asked(booking, serializer.validated_data)
        return Response(self.present(booking.pk))


@extend_schema_view(
    list=extend_schema(
        operation_id="booking_players_list",
        summary="List the players of an area booking",
        parameters=[ID_PARAM],
        tags=["bookings"],
    ),
    create=extend_schema(
        operation_id="booking_players_create",
        summary="Add a player to an area booking",
        parameters=[ID_PARAM],
        responses={201: PLAYER.serializer},
        tags=["bookings"],
        description="409 PLAYER_LIMIT_REACHED beyond the area type's `maxPlayers` (at most 50 players a booking); "
        "409 DUPLICATE_VALUE for a repeated `contactId`, or a repeated e-mail when the credential holds "
        "`contacts:read` (without it e-mails are not compared).",
    ),
    destroy=extend_schema(
        operation_id="booking_players_delete",
        summary="Remove a player from an area booking",
        parameters=[ID_PARAM, PLAYER_ID_PARAM],
        responses={204: None},
        tags=["bookings"],
    ),
)
class BookingPlayerViewSet(
    ParentPathMixin, ListResourceMixin, CreateResourceMixin, DestroyResourceMixin, PlatformViewSet
):
    """Participants of an area booking. The organizer (the booking's contact) cannot be removed."""

    queryset = Player.objects.all()
    resource = PLAYER
    filterset_class = PlayerFilterSet
    lookup_url_kwarg = "playerId"
    required_scopes = {"list": "bookings:read", "create": "bookings:write", "destroy": "bookings:write"}
    rate_buckets = {"create": BOOKING_WRITES, "destroy": BOOKING_WRITES}
    write_serializer = PlayerInputSerializer

    parent_model = Booking
    parent_field = "booking"

    def create_object(self, data):
        return services.add_player(self.get_parent(), **data, match_emails=self.credential.has_scope("contacts:read"))

    def destroy_object(self, player):
        services.remove_player(self.get_parent(), player)


# --- channel integration --------------------------------------------------------------------------------------


class ChannelBookingMixin:
    def booking_body(self, booking_id):
        return BOOKING.get(Booking.objects.filter(organization=self.organization), booking_id, self.present_context())

    def booking_for(self, external_source, external_id):
        return channel.get_channel_booking(self.organization, external_source, external_id)

    def check_path_objects(self):
        if "externalId" in self.kwargs:
            self.booking_for(self.kwargs["externalSource"], self.kwargs["externalId"])


class ChannelBookingWriteView(ChannelBookingMixin, PlatformAPIView):
    """`POST` on the booking the path names (its 404 comes before the body is read): the body validated by
    `write_serializer`, `write(booking, validated_data)`, and the booking as the answer. Without `body_required` an
    empty or `null` body counts as `{}`."""

    required_scopes = {"post": "bookings:write"}
    rate_buckets = {"post": BOOKING_WRITES}
    write_serializer: type
    body_required = True

    def write(self, booking, data) -> None:
        raise NotImplementedError

    def post(self, request, externalSource, externalId):
        booking = self.booking_for(externalSource, externalId)
        serializer = self.write_serializer(data=request.data if self.body_required else request.data or {})
        serializer.is_valid(raise_exception=True)
        self.write(booking, serializer.validated_data)
        return Response(self.booking_body(booking.pk))


class ChannelBookingCreateView(ChannelBookingMixin, PlatformAPIView):
    """A partner platform creates an area (default) or class booking under its own external id."""

    required_scopes = {"post": "bookings:write"}

    def get_rate_bucket(self, request):
        """`booking-writes` for `type: area`, `book-into-class` for `type: class` (read cheaply from the body)."""
        try:
            body = orjson.loads(request._request.body or b"{}")
        except (orjson.JSONDecodeError, ValueError):
            return BOOKING_WRITES
        return BOOK_INTO_CLASS if isinstance(body, dict) and body.get("type") == BookingType.CLASS else BOOKING_WRITES

    @extend_schema(
        operation_id="channel_bookings_create",
        summary="Create a booking from a partner channel",
        request=ChannelBookingCreateSerializer,
        responses={201: BOOKING.serializer},
        tags=["channel-bookings"],
        description="Rate bucket: booking-writes for `type: area`, book-into-class for `type: class`. A `contact` "
        "block reuses the active contact with its e-mail when the credential holds `contacts:read`; without it a new "
        "contact is always created.",
    )
    def post(self, request):
        validated_data = self.validated(ChannelBookingCreateSerializer)
        booking = channel.create_channel_booking(
            self.organization, dict(validated_data), match_emails=self.credential.has_scope("contacts:read")
        )
        response = Response(self.booking_body(booking.pk), status=201)
        response["Location"] = BOOKING_LOCATION.format(pk=booking.pk)
        return response


class ChannelBookingDetailView(ChannelBookingMixin, PlatformAPIView):
    required_scopes = {"get": "bookings:read"}

    @extend_schema(
        operation_id="channel_bookings_get",
        summary="Get a booking by its external id",
        responses=BOOKING.serializer,
        tags=["channel-bookings"],
    )
    def get(self, request, externalSource, externalId):
        return Response(self.booking_body(self.booking_for(externalSource, externalId).pk))


@extend_schema_view(
    post=extend_schema(
        operation_id="channel_bookings_cancel",
        summary="Cancel a booking by its external id",
        request=CancelSerializer,
        responses=BOOKING.serializer,
        tags=["channel-bookings"],
    )
)
class ChannelBookingCancelView(ChannelBookingWriteView):
    write_serializer = CancelSerializer
    body_required = False

    def write(self, booking, data):
        cancel_as_asked(booking, data)


@extend_schema_view(
    post=extend_schema(
        operation_id="channel_bookings_payment",
        summary="Report the partner's payment totals for a booking",
        request=PaymentReportSerializer,
        responses=BOOKING.serializer,
        tags=["channel-bookings"],
        description="Payment report with absolute totals; safe to retry.",
    )
)
class ChannelBookingPaymentView(ChannelBookingWriteView):
    write_serializer = PaymentReportSerializer

    def write(self, booking, data):
        services.apply_payment_report(booking, **data["payment"])


router = SimpleRouter(trailing_slash=False)
router.register("bookings", BookingViewSet, basename="bookings")
router.register(r"bookings/(?P<id>[0-9]+)/players", BookingPlayerViewSet, basename="booking-players")

CHANNEL_SOURCE = r"(?P<externalSource>[a-z0-9_-]{1,40})"
CHANNEL_ID = r"(?P<externalId>[^/]{1,100})"

urlpatterns = router.urls + [
    path("channel-bookings", ChannelBookingCreateView.as_view(), name="channel-bookings"),
]
urlpatterns += [
    re_path(
        rf"^channel-bookings/{CHANNEL_SOURCE}/{CHANNEL_ID}$", ChannelBookingDetailView.as_view(), name="channel-booking"
    ),
    re_path(
        rf"^channel-bookings/{CHANNEL_SOURCE}/{CHANNEL_ID}/cancel$",
        ChannelBookingCancelView.as_view(),
        name="channel-booking-cancel",
    ),
    re_path(
        rf"^channel-bookings/{CHANNEL_SOURCE}/{CHANNEL_ID}/payment$",
        ChannelBookingPaymentView.as_view(),
        name="channel-booking-payment",
    ),
]
