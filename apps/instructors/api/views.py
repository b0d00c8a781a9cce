"""Instructors, instructor types and pay-rate policies. No DELETE anywhere: deactivate with `isActive: false`."""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.decorators import action
from rest_framework.response import Response

from apps.api.permissions import AllOf
from apps.api.resources import shape_serializer
from apps.api.schema import crud_schema_view
from apps.api.scopes import crud_scopes
from apps.api.views import CreateResourceMixin, ResourceViewSet, UpdateResourceMixin, Writes

from .. import calendar_feed, services
from ..filters import InstructorFilterSet, InstructorTypeFilterSet, PayRatePolicyFilterSet
from ..models import Instructor, InstructorType, PayRatePolicy
from ..resources import INSTRUCTOR, INSTRUCTOR_TYPE, PAY_RATE_POLICY
from .serializers import (
    InstructorCreateSerializer,
    InstructorTypeInputSerializer,
    InstructorUpdateSerializer,
    PayRatePolicyInputSerializer,
)

ID_PARAM = OpenApiParameter("id", int, OpenApiParameter.PATH)
FEED_DESCRIPTION = (
    "The instructor's private iCalendar feed (`text/calendar`): every class they teach from 30 days ago to 180 days "
    "ahead, one event per occurrence on its club's clock, cancelled ones with `STATUS:CANCELLED`. The URL is "
    "signed and needs no credential; `webcalUrl` is the same URL with the `webcal` scheme. "
)


@crud_schema_view(
    "instructors",
    tags=["instructors"],
    summaries={
        "list": "List instructors (with weekly availability)",
    },
    descriptions={
        "create": "From `contactId` or a new `contact`. Grants no admin-portal login and sends no staff invitation.",
        "partial_update": "Partial update; `weeklyAvailability` replaces the whole list. "
        "Deactivate with `isActive: false`.",
    },
    calendar_feed=extend_schema(
        operation_id="instructor_calendar_feed_get",
        summary="Get an instructor's private calendar feed URL",
        description=FEED_DESCRIPTION + "The URL stays the same until it is rotated (or staff revoke every feed of the "
        "organization). Needs `classes:read` as well as `instructors:read`: the feed lists the instructor's classes.",
        parameters=[ID_PARAM],
        responses=shape_serializer(calendar_feed.CalendarFeed),
        filters=False,
    ),
    rotate_calendar_feed=extend_schema(
        operation_id="instructor_calendar_feed_rotate",
        summary="Rotate an instructor's calendar feed URL",
        description=FEED_DESCRIPTION + "Rotating revokes every earlier URL at once (it answers 404) and returns the "
        "new one.",
        parameters=[ID_PARAM],
        request=None,
        responses=shape_serializer(calendar_feed.CalendarFeed),
    ),
)
class InstructorViewSet(CreateResourceMixin, UpdateResourceMixin, ResourceViewSet):
    """A contact who teaches."""

    queryset = Instructor.objects.all()
    resource = INSTRUCTOR
    filterset_class = InstructorFilterSet
    required_scopes = crud_scopes(
        "instructors",
        read=("list", "retrieve"),
        write=("create", "partial_update", "rotate_calendar_feed"),
        # The feed lists the instructor's classes (every visibility, with descriptions): it needs what reading
        # those classes needs too.
        calendar_feed=AllOf("instructors:read", "classes:read"),
    )

    write_serializer = InstructorCreateSerializer
    update_serializer = InstructorUpdateSerializer
    writes = Writes(update=services.update_instructor)

    def create_object(self, data):
        return services.create_instructor(
            self.organization, data, reveal_existing_contact_id=self.credential.has_scope("contacts:read")
        )

    @action(detail=True, methods=["get"], url_path="calendar-feed")
    def calendar_feed(self, request, pk=None):
        return Response(calendar_feed.feed_body(self.get_object(), self.organization))

    @action(detail=True, methods=["post"], url_path="calendar-feed/rotate")
    def rotate_calendar_feed(self, request, pk=None):
        return Response(calendar_feed.feed_body(calendar_feed.rotate(self.get_object()), self.organization))


@crud_schema_view("instructor_types", tags=["instructors"])
class InstructorTypeViewSet(CreateResourceMixin, UpdateResourceMixin, ResourceViewSet):
    """A category of instructor (coach, personal trainer)."""

    queryset = InstructorType.objects.all()
    resource = INSTRUCTOR_TYPE
    filterset_class = InstructorTypeFilterSet
    required_scopes = crud_scopes("instructors")

    write_serializer = InstructorTypeInputSerializer


@crud_schema_view(
    "pay_rate_policies",
    tags=["instructors"],
    summaries={
        "list": "List pay-rate policies",
        "retrieve": "Get a pay-rate policy",
        "create": "Create a pay-rate policy",
        "partial_update": "Update a pay-rate policy",
    },
)
class PayRatePolicyViewSet(CreateResourceMixin, UpdateResourceMixin, ResourceViewSet):
    """How an instructor is paid: hourly, per class or per attendee."""

    queryset = PayRatePolicy.objects.all()
    resource = PAY_RATE_POLICY
    filterset_class = PayRatePolicyFilterSet
    required_scopes = crud_scopes("instructors")

    write_serializer = PayRatePolicyInputSerializer
