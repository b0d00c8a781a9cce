"""Instructors, instructor types and pay-rate policies. No DELETE anywhere: deactivate with `isActive: false`."""

from django.db.models import Q, Value
from django.db.models.functions import Concat
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.response import Response

from apps.api.fastread import ValuesPage
from apps.api.filters import apply_ordering, parse_bool, parse_int
from apps.api.schema import crud_schema_view
from apps.api.scopes import crud_scopes
from apps.api.views import PlatformViewSet

from .. import services
from ..models import Instructor, InstructorType, PayRatePolicy
from ..presenters import (
    INSTRUCTOR_COLUMNS,
    PUBLIC_INSTRUCTOR_PREFETCH,
    present_instructor,
    present_instructor_row,
    present_instructor_type,
    present_pay_rate_policy,
)
from .serializers import (
    InstructorCreateSerializer,
    InstructorSchema,
    InstructorTypeInputSerializer,
    InstructorTypeSchema,
    InstructorUpdateSerializer,
    PayRatePolicyInputSerializer,
    PayRatePolicySchema,
)

READ_WRITE = ["get", "post", "patch", "head"]
INSTRUCTOR_ORDERING = {
    "createdAt": "created_at",
    "updatedAt": "updated_at",
    "name": "contact__first_name",
    "id": "id",
}
SIMPLE_ORDERING = {"name": "name", "createdAt": "created_at", "id": "id"}
ORDERING_PARAM = OpenApiParameter("ordering", str, description="`createdAt`, `name`; `-` for descending.")


@crud_schema_view(
    "instructors",
    InstructorSchema,
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
    parameters={
        "list": [
            OpenApiParameter("isActive", bool),
            OpenApiParameter("isBookable", bool),
            OpenApiParameter("typeId", int),
            OpenApiParameter("sport", str, description="Instructors teaching this sport."),
            OpenApiParameter("q", str, description="Case-insensitive search in the contact's name."),
            ORDERING_PARAM,
        ]
    },
)
@extend_schema(tags=["instructors"])
class InstructorViewSet(PlatformViewSet):
    """A contact who teaches."""

    queryset = Instructor.objects.all()
    http_method_names = READ_WRITE
    required_scopes = crud_scopes("instructors")

    def base_queryset(self):
        return Instructor.objects.select_related(*PUBLIC_INSTRUCTOR_PREFETCH)

    def list(self, request):
        params = request.query_params
        queryset = self.get_queryset()
        for param, field in (("isActive", "is_active"), ("isBookable", "is_bookable")):
            value = parse_bool(params, param)
            if value is not None:
                queryset = queryset.filter(**{field: value})
        type_id = parse_int(params, "typeId")
        if type_id is not None:
            queryset = queryset.filter(type_id=type_id)
        if params.get("sport"):
            queryset = queryset.filter(sports__contains=[params["sport"]])
        if params.get("q"):
            term = params["q"].strip()
            queryset = queryset.annotate(
                contact_full_name=Concat("contact__first_name", Value(" "), "contact__last_name")
            ).filter(
                Q(contact__first_name__icontains=term)
                | Q(contact__last_name__icontains=term)
                | Q(contact_full_name__icontains=term)
            )
        queryset = apply_ordering(queryset, params, INSTRUCTOR_ORDERING, "-createdAt")
        page = self.paginate_queryset(ValuesPage(queryset, lambda qs: qs.values(*INSTRUCTOR_COLUMNS)))
        return self.get_paginated_response([present_instructor_row(row) for row in page])

    def retrieve(self, request, pk=None):
        return Response(present_instructor(self.get_object()))

    def create(self, request):
        data = self.validated(InstructorCreateSerializer)
        instructor = services.create_instructor(self.organization, data)
        return self.created(present_instructor(instructor), instructor)

    def partial_update(self, request, pk=None):
        instructor = self.get_object()
        data = self.validated(InstructorUpdateSerializer, partial=True)
        instructor = services.update_instructor(instructor, data)
        return Response(present_instructor(instructor))


@crud_schema_view(
    "instructor_types",
    InstructorTypeSchema,
    write=InstructorTypeInputSerializer,
    update=InstructorTypeInputSerializer(partial=True),
    summaries={
        "list": "List instructor types",
        "retrieve": "Get an instructor type",
        "create": "Create an instructor type",
        "partial_update": "Update an instructor type",
    },
    parameters={"list": [ORDERING_PARAM]},
)
@extend_schema(tags=["instructors"])
class InstructorTypeViewSet(PlatformViewSet):
    """A category of instructor (coach, personal trainer)."""

    queryset = InstructorType.objects.all()
    http_method_names = READ_WRITE
    required_scopes = crud_scopes("instructors")

    def list(self, request):
        queryset = apply_ordering(self.get_queryset(), request.query_params, SIMPLE_ORDERING, "-createdAt")
        page = self.paginate_queryset(queryset)
        return self.get_paginated_response([present_instructor_type(o) for o in page])

    def retrieve(self, request, pk=None):
        return Response(present_instructor_type(self.get_object()))

    def create(self, request):
        instructor_type = services.create_instructor_type(
            self.organization, self.validated(InstructorTypeInputSerializer)
        )
        return self.created(present_instructor_type(instructor_type), instructor_type)

    def partial_update(self, request, pk=None):
        instructor_type = self.get_object()
        data = self.validated(InstructorTypeInputSerializer, partial=True)
        return Response(present_instructor_type(services.update_instructor_type(instructor_type, data)))


@crud_schema_view(
    "pay_rate_policies",
    PayRatePolicySchema,
    write=PayRatePolicyInputSerializer,
    update=PayRatePolicyInputSerializer(partial=True),
    summaries={
        "list": "List pay-rate policies",
        "retrieve": "Get a pay-rate policy",
        "create": "Create a pay-rate policy",
        "partial_update": "Update a pay-rate policy",
    },
    parameters={"list": [OpenApiParameter("isActive", bool), ORDERING_PARAM]},
)
@extend_schema(tags=["instructors"])
class PayRatePolicyViewSet(PlatformViewSet):
    """How an instructor is paid: hourly, per class or per attendee."""

    queryset = PayRatePolicy.objects.all()
    http_method_names = READ_WRITE
    required_scopes = crud_scopes("instructors")

    def list(self, request):
        queryset = self.get_queryset()
        is_active = parse_bool(request.query_params, "isActive")
        if is_active is not None:
            queryset = queryset.filter(is_active=is_active)
        queryset = apply_ordering(queryset, request.query_params, SIMPLE_ORDERING, "-createdAt")
        page = self.paginate_queryset(queryset)
        return self.get_paginated_response([present_pay_rate_policy(o) for o in page])

    def retrieve(self, request, pk=None):
        return Response(present_pay_rate_policy(self.get_object()))

    def create(self, request):
        policy = services.create_pay_rate_policy(self.organization, self.validated(PayRatePolicyInputSerializer))
        return self.created(present_pay_rate_policy(policy), policy)

    def partial_update(self, request, pk=None):
        policy = self.get_object()
        data = self.validated(PayRatePolicyInputSerializer, partial=True)
        return Response(present_pay_rate_policy(services.update_pay_rate_policy(policy, data)))
