"""Transactions (`/v1/platform/transactions`): the list and items, outside revenue and its refunds."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.decorators import action

from apps.api.schema import crud_schema_view
from apps.api.scopes import crud_scopes
from apps.api.views import CreateResourceMixin, ResourceViewSet

from .. import services
from ..filters import TransactionFilterSet
from ..models import Transaction
from ..resources import TRANSACTION
from .serializers import ExternalRevenueCreateSerializer, TransactionRefundSerializer

ERROR = {"$ref": "#/components/schemas/Error"}


@crud_schema_view(
    "transactions",
    write=ExternalRevenueCreateSerializer,
    update=None,
    summaries={
        "list": "List transactions",
        "retrieve": "Get a transaction",
        "create": "Record revenue collected outside the service",
    },
    descriptions={
        "list": "With neither `startDate` nor `endDate`, the last 24 hours (on `createdAt`); one bound alone leaves "
        "the other end open.",
        "create": "One settlement sum: creates `type: external_revenue`, `paymentStatus: paid`. Nothing is charged "
        "to anyone.",
    },
    refund=extend_schema(
        operation_id="transactions_refund",
        summary="Refund revenue collected outside the service",
        description="Creates a `type: refund` transaction with `refundOfId` and updates the original's "
        "`refundedAmount` and `paymentStatus`. Nothing is paid out. 409 `NOT_EXTERNAL_REVENUE` for a transaction "
        "not recorded through `POST /transactions`; 409 `REFUND_EXCEEDS_BALANCE` above what is left to refund.",
        request=TransactionRefundSerializer,
        responses={
            201: TRANSACTION.serializer,
            409: OpenApiResponse(ERROR, description="NOT_EXTERNAL_REVENUE, REFUND_EXCEEDS_BALANCE"),
        },
    ),
)
@extend_schema(tags=["transactions"])
class TransactionViewSet(CreateResourceMixin, ResourceViewSet):
    """What a payer owes for one thing ("charges" in the admin apps), outside revenue and its refunds."""

    queryset = Transaction.objects.all()
    resource = TRANSACTION
    filterset_class = TransactionFilterSet
    http_method_names = ["get", "post", "head"]
    required_scopes = crud_scopes("transactions", write=("create", "refund"))

    write_serializer = ExternalRevenueCreateSerializer

    def perform_create(self, data):
        return services.record_external_revenue(self.organization, data)

    @action(detail=True, methods=["post"], url_path="refund")
    def refund(self, request, pk=None):
        data = self.validated(TransactionRefundSerializer)
        refund = services.refund_external_revenue(self.organization, self.get_object(), data)
        return self.created(self.present(refund.pk), location=f"/v1/platform/transactions/{refund.pk}")
