"""Booking policies (CRUD plus duplicate) and document rules (CRUD). Stored and served only: API writes of
bookings do not enforce them."""

from drf_spectacular.utils import extend_schema
from rest_framework.decorators import action

from apps.api.schema import crud_schema_view
from apps.api.scopes import crud_scopes
from apps.api.views import CreateResourceMixin, DestroyResourceMixin, ResourceViewSet, UpdateResourceMixin, Writes

from .. import services
from ..filters import BookingPolicyFilterSet, DocumentRuleFilterSet
from ..models import BookingPolicy, DocumentRule
from ..resources import BOOKING_POLICY, DOCUMENT_RULE
from .serializers import (
    BookingPolicyCreateSerializer,
    BookingPolicyUpdateSerializer,
    DocumentRuleCreateSerializer,
    DocumentRuleUpdateSerializer,
)


@crud_schema_view(
    "booking_policies",
    tags=["booking-policies"],
    descriptions={"destroy": "409 `CONFLICT` for the default policy while other policies of its `appliesTo` remain."},
    duplicate=extend_schema(
        operation_id="booking_policies_duplicate",
        summary="Duplicate a booking policy",
        description='A copy of every field, named "<name> (copy)", with `isDefault: false`.',
        request=None,
        responses={201: BOOKING_POLICY.serializer},
    ),
)
class BookingPolicyViewSet(CreateResourceMixin, UpdateResourceMixin, DestroyResourceMixin, ResourceViewSet):
    """Booking limits of areas, classes or instructors; exactly one default per `appliesTo`. Not enforced on
    API writes of bookings."""

    queryset = BookingPolicy.objects.all()
    resource = BOOKING_POLICY
    filterset_class = BookingPolicyFilterSet
    required_scopes = crud_scopes("booking-policies", write=("create", "partial_update", "destroy", "duplicate"))

    write_serializer = BookingPolicyCreateSerializer
    update_serializer = BookingPolicyUpdateSerializer

    writes = Writes(
        create=services.create_booking_policy,
        update=services.update_booking_policy,
        delete=services.delete_booking_policy,
    )

    @action(detail=True, methods=["post"], url_path="duplicate")
    def duplicate(self, request, pk=None):
        copy = services.duplicate_booking_policy(self.get_object())
        return self.created(self.present(copy.pk), location=f"/v1/platform/booking-policies/{copy.pk}")


@crud_schema_view(
    "document_rules",
    tags=["document-rules"],
)
class DocumentRuleViewSet(CreateResourceMixin, UpdateResourceMixin, DestroyResourceMixin, ResourceViewSet):
    """Rules on who must sign or accept documents. Not enforced on API writes."""

    queryset = DocumentRule.objects.all()
    resource = DOCUMENT_RULE
    filterset_class = DocumentRuleFilterSet
    required_scopes = crud_scopes("document-rules", write=("create", "partial_update", "destroy"))

    write_serializer = DocumentRuleCreateSerializer
    update_serializer = DocumentRuleUpdateSerializer

    writes = Writes(create=services.create_document_rule, update=services.update_document_rule)
