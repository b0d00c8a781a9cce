"""Events with their ticket types (`/v1/platform/events`) and the bookings of an event
(`/v1/platform/events/{id}/bookings`). Views stay thin: validate, call a service, present."""

from django.urls import path
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.routers import SimpleRouter

from apps.api.ratelimit import BOOKING_WRITES
from apps.api.schema import ERROR_REF, crud_schema_view
from apps.api.scopes import crud_scopes
from apps.api.views import (
    CreateResourceMixin,
    DestroyResourceMixin,
    PlatformViewSet,
    ResourceViewSet,
    UpdateResourceMixin,
    Writes,
)
from apps.bookings.api.views import BookingsOfParentMixin
from apps.bookings.choices import BookingType
from apps.bookings.resources import BOOKING

from .. import services
from ..filters import EventBookingFilterSet, EventFilterSet
from ..models import Event
from ..resources import EVENT
from .serializers import (
    EventBookingCreateSerializer,
    EventCancelSerializer,
    EventCreateSerializer,
    EventUpdateSerializer,
)

LOCALE = OpenApiParameter(
    "locale", str, description="Language code for names and descriptions; falls back to the organization's default."
)
STATE_CONFLICT = OpenApiResponse(ERROR_REF, description="INVALID_STATE_TRANSITION (`details.currentStatus`).")
EVENT_WRITES = ("create", "partial_update", "destroy", "duplicate", "publish", "unpublish", "cancel")


@crud_schema_view(
    "events",
    tags=["events"],
    summaries={
        "list": "List events (with tickets and sold counts)",
        "partial_update": "Update an event or replace its tickets",
    },
    descriptions={
        "list": "Default ordering `startTime`. `startDate`/`endDate` (inclusive) filter `startTime`; a bare date is "
        "a whole day on the event's club clock.",
        "create": "`name`, `clubId`, `startTime` and `endTime` are required. Created as `draft`; `slug` is derived "
        "from the name (unique in the organization).",
        "partial_update": "Partial update. `tickets` replaces the list: an item with `id` keeps that ticket (its "
        "fields replaced), one without creates a ticket, a ticket left out is removed (409 `CONFLICT` once it has "
        "sales). `capacity` or a ticket's `quantity` below what is sold: 409 `CONFLICT`. A cancelled event: 409 "
        "`INVALID_STATE_TRANSITION`. Attendees' bookings follow a change of the times or the club.",
    },
    parameters={"list": [LOCALE], "retrieve": [LOCALE]},
    destroy=extend_schema(
        operation_id="events_delete",
        summary="Delete an event",
        description="409 `RESOURCE_IN_USE` once any booking was made on it (cancel it instead).",
        responses={204: OpenApiResponse(description="Deleted"), 409: OpenApiResponse(ERROR_REF, "RESOURCE_IN_USE")},
    ),
    duplicate=extend_schema(
        operation_id="events_duplicate",
        summary="Duplicate an event",
        description='A new `draft` copy named "<name> (copy)", with the same ticket types and no sales.',
        request=None,
        responses={201: EVENT.serializer},
    ),
    publish=extend_schema(
        operation_id="events_publish",
        summary="Publish an event",
        description="`draft` becomes `published` (bookable). Otherwise 409 `INVALID_STATE_TRANSITION`.",
        request=None,
        responses={200: EVENT.serializer, 409: STATE_CONFLICT},
    ),
    unpublish=extend_schema(
        operation_id="events_unpublish",
        summary="Unpublish an event",
        description="`published` becomes `draft`; bookings already made stay. Otherwise 409 "
        "`INVALID_STATE_TRANSITION`.",
        request=None,
        responses={200: EVENT.serializer, 409: STATE_CONFLICT},
    ),
    cancel=extend_schema(
        operation_id="events_cancel",
        summary="Cancel an event",
        description="`draft` or `published` becomes `cancelled`, and in the same transaction every pending or "
        "confirmed booking of the event is cancelled (checked-in ones stay). With `notifyCustomer` their contacts "
        "are told. Out of `cancelled`: 409 `INVALID_STATE_TRANSITION`.",
        request=EventCancelSerializer,
        responses={200: EVENT.serializer, 409: STATE_CONFLICT},
    ),
)
class EventViewSet(CreateResourceMixin, UpdateResourceMixin, DestroyResourceMixin, ResourceViewSet):
    """An event at a club with its ticket types; attendance is a booking of `type: event`."""

    queryset = Event.objects.all()
    resource = EVENT
    filterset_class = EventFilterSet
    required_scopes = crud_scopes("events", write=EVENT_WRITES)

    write_serializer = EventCreateSerializer
    update_serializer = EventUpdateSerializer

    writes = Writes(create=services.create_event, update=services.update_event, delete=services.delete_event)

    @action(detail=True, methods=["post"], url_path="duplicate")
    def duplicate(self, request, pk=None):
        copy = services.duplicate_event(self.get_object())
        return self.created(self.present(copy.pk), location=f"/v1/platform/events/{copy.pk}")

    @action(detail=True, methods=["post"], url_path="publish")
    def publish(self, request, pk=None):
        return Response(self.present(services.publish_event(self.get_object()).pk))

    @action(detail=True, methods=["post"], url_path="unpublish")
    def unpublish(self, request, pk=None):
        return Response(self.present(services.unpublish_event(self.get_object()).pk))

    @action(detail=True, methods=["post"], url_path="cancel")
    def cancel(self, request, pk=None):
        data = self.validated(EventCancelSerializer)
        event, _cancelled = services.cancel_event(
            self.get_object(), reason=data.get("reason") or None, notify_customer=data["notify_customer"]
        )
        return Response(self.present(event.pk))


@extend_schema_view(
    list=extend_schema(
        operation_id="event_bookings_list",
        summary="The event's attendees",
        description="Bookings of `type: event` on this event, every status, ordered by `createdAt` then `id`. "
        "`contactEmail` is null unless the credential also holds `contacts:read`.",
        responses={200: BOOKING.serializer},
        tags=["events"],
    ),
    create=extend_schema(
        operation_id="event_bookings_create",
        summary="Book a person onto the event",
        description="One person per call, on one of the event's tickets, onto a `published` event. The booking is "
        "`confirmed`; its payment `unpaid` (or `no_charge` for a free ticket), priced by the ticket, with its "
        "transaction (`sourceType: event`). 409: SOLD_OUT (`details.ticketId`; the event's `capacity` or the "
        "ticket's `quantity` is reached), ALREADY_BOOKED (`details.bookingId`), INVALID_STATE_TRANSITION (the event "
        "is not published), CONFLICT (outside the ticket's sales window). Cancel it through "
        "`POST /bookings/{id}/cancel`, which frees the ticket.",
        responses={201: BOOKING.serializer, 409: OpenApiResponse(ERROR_REF, "Business rule conflict (`code`).")},
        tags=["events"],
    ),
)
class EventBookingViewSet(BookingsOfParentMixin, PlatformViewSet):
    """The bookings of one event, and booking a person onto it."""

    parent_model = Event
    parent_field = "event"
    booking_type = BookingType.EVENT
    resource = BOOKING
    filterset_class = EventBookingFilterSet
    rate_buckets = {"create": BOOKING_WRITES}
    write_serializer = EventBookingCreateSerializer

    def create_object(self, data):
        return services.book_event(
            organization=self.organization,
            event=self.get_parent(),
            contact=data["contact"],
            ticket_id=data["ticket_id"],
            notes=data.get("notes"),
        )


router = SimpleRouter(trailing_slash=False)
router.register("events", EventViewSet, basename="event")

urlpatterns = [
    path(
        "events/<int:id>/bookings",
        EventBookingViewSet.as_view({"get": "list", "post": "create"}),
        name="event-bookings",
    ),
    *router.urls,
]
