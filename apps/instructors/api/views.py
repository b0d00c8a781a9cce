"""Instructors, instructor types and pay-rate policies. No DELETE anywhere: deactivate with `isActive: false`."""

from drf_spectacular.utils import extend_schema

from apps.api.schema import crud_schema_view
from apps.api.scopes import crud_scopes
from apps.api.views import CreateResourceMixin, ResourceViewSet, UpdateResourceMixin

from .. import services
from ..filters import InstructorFilterSet, InstructorTypeFilterSet, PayRatePolicyFilterSet
from ..models import Instructor, InstructorType, PayRatePolicy
from ..resources import INSTRUCTOR, INSTRUCTOR_TYPE, PAY_RATE_POLICY
from .serializers import (
    InstructorCreateSerializer,
    InstructorTypeInputSerializer,
    InstructorUpdateSerializer,
    PayRatePolicyInputSerializer,
)

READ_WRITE = ["get", "post", "patch", "head"]


@crud_schema_view(
    "instructors",
    write=InstructorCreateSerializer,
    update=InstructorUpdateSerializer,
    summaries={
        "list": "List instructors (with weekly availability)",
        "retrieve": "Get an instructor",
        "create": "Create an instructor",
        "partial_update": "Update an instructor",
    },
    descriptions={
        "create": "From `contactId` or a new `contact`. Grants no admin-portal login and sends no staff invitation.",
        "partial_update": "Partial update; `weeklyAvailability` replaces the whole list. "
        "Deactivate with `isActive: false`.",
    },
)
@extend_schema(tags=["instructors"])
class InstructorViewSet(CreateResourceMixin, UpdateResourceMixin, ResourceViewSet):
    """A contact who teaches."""

    queryset = Instructor.objects.all()
    resource = INSTRUCTOR
    filterset_class = InstructorFilterSet
    http_method_names = READ_WRITE
    required_scopes = crud_scopes("instructors")

    write_serializer = InstructorCreateSerializer
    update_serializer = InstructorUpdateSerializer

    def perform_create(self, data):
        return services.create_instructor(
            self.organization, data, reveal_existing_contact_id=self.credential.has_scope("contacts:read")
        )

    def perform_update(self, instructor, data):
        services.update_instructor(instructor, data)


@crud_schema_view(
    "instructor_types",
    write=InstructorTypeInputSerializer,
    update=InstructorTypeInputSerializer(partial=True),
    summaries={
        "list": "List instructor types",
        "retrieve": "Get an instructor type",
        "create": "Create an instructor type",
        "partial_update": "Update an instructor type",
    },
)
@extend_schema(tags=["instructors"])
class InstructorTypeViewSet(CreateResourceMixin, UpdateResourceMixin, ResourceViewSet):
    """A category of instructor (coach, personal trainer)."""

    queryset = InstructorType.objects.all()
    resource = INSTRUCTOR_TYPE
    filterset_class = InstructorTypeFilterSet
    http_method_names = READ_WRITE
    required_scopes = crud_scopes("instructors")

    write_serializer = InstructorTypeInputSerializer

    def perform_create(self, data):
        return services.create_instructor_type(self.organization, data)

    def perform_update(self, instructor_type, data):
        services.update_instructor_type(instructor_type, data)


@crud_schema_view(
    "pay_rate_policies",
    write=PayRatePolicyInputSerializer,
    update=PayRatePolicyInputSerializer(partial=True),
    summaries={
        "list": "List pay-rate policies",
        "retrieve": "Get a pay-rate policy",
        "create": "Create a pay-rate policy",
        "partial_update": "Update a pay-rate policy",
    },
)
@extend_schema(tags=["instructors"])
class PayRatePolicyViewSet(CreateResourceMixin, UpdateResourceMixin, ResourceViewSet):
    """How an instructor is paid: hourly, per class or per attendee."""

    queryset = PayRatePolicy.objects.all()
    resource = PAY_RATE_POLICY
    filterset_class = PayRatePolicyFilterSet
    http_method_names = READ_WRITE
    required_scopes = crud_scopes("instructors")

    write_serializer = PayRatePolicyInputSerializer

    def perform_create(self, data):
        return services.create_pay_rate_policy(self.organization, data)

    def perform_update(self, policy, data):
        services.update_pay_rate_policy(policy, data)
