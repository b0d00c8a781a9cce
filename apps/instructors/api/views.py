"""Instructors, instructor types and pay-rate policies. No DELETE anywhere: deactivate with `isActive: false`."""

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from apps.api.schema import crud_schema_view
from apps.api.scopes import crud_scopes
from apps.api.views import ResourceViewSet

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
class InstructorViewSet(ResourceViewSet):
    """A contact who teaches."""

    queryset = Instructor.objects.all()
    resource = INSTRUCTOR
    filterset_class = InstructorFilterSet
    http_method_names = READ_WRITE
    required_scopes = crud_scopes("instructors")

    def create(self, request):
        data = self.validated(InstructorCreateSerializer)
        instructor = services.create_instructor(self.organization, data)
        return self.created(self.present(instructor.pk), instructor)

    def partial_update(self, request, pk=None):
        instructor = self.get_object()
        data = self.validated(InstructorUpdateSerializer, partial=True)
        services.update_instructor(instructor, data)
        return Response(self.present(instructor.pk))


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
class InstructorTypeViewSet(ResourceViewSet):
    """A category of instructor (coach, personal trainer)."""

    queryset = InstructorType.objects.all()
    resource = INSTRUCTOR_TYPE
    filterset_class = InstructorTypeFilterSet
    http_method_names = READ_WRITE
    required_scopes = crud_scopes("instructors")

    def create(self, request):
        instructor_type = services.create_instructor_type(
            self.organization, self.validated(InstructorTypeInputSerializer)
        )
        return self.created(self.present(instructor_type.pk), instructor_type)

    def partial_update(self, request, pk=None):
        instructor_type = self.get_object()
        data = self.validated(InstructorTypeInputSerializer, partial=True)
        services.update_instructor_type(instructor_type, data)
        return Response(self.present(instructor_type.pk))


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
class PayRatePolicyViewSet(ResourceViewSet):
    """How an instructor is paid: hourly, per class or per attendee."""

    queryset = PayRatePolicy.objects.all()
    resource = PAY_RATE_POLICY
    filterset_class = PayRatePolicyFilterSet
    http_method_names = READ_WRITE
    required_scopes = crud_scopes("instructors")

    def create(self, request):
        policy = services.create_pay_rate_policy(self.organization, self.validated(PayRatePolicyInputSerializer))
        return self.created(self.present(policy.pk), policy)

    def partial_update(self, request, pk=None):
        policy = self.get_object()
        data = self.validated(PayRatePolicyInputSerializer, partial=True)
        services.update_pay_rate_policy(policy, data)
        return Response(self.present(policy.pk))
