"""Transactions (`/v1/platform/transactions`): the list and items, outside revenue and its refunds."""

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.decorators import action
from rest_framework.response import Response

from apps.api.exceptions import ValidationFailed
from apps.api.ratelimit import REPORTS
from apps.api.resources import shape_serializer
from apps.api.schema import ERROR_REF, crud_schema_view
from apps.api.scopes import crud_scopes
from apps.api.views import CreateResourceMixin, ResourceViewSet, Writes
from apps.clubs.report_period import PERIOD_PARAMETERS, report_period

from .. import reports, services
from ..filters import TransactionFilterSet
from ..models import Transaction
from ..resources import TRANSACTION, TransactionSummary
from .serializers import ExternalRevenueCreateSerializer, TransactionRefundSerializer

SUMMARY_PARAMETERS = [
    *PERIOD_PARAMETERS,
    OpenApiParameter(
        "groupBy",
        str,
        enum=list(reports.GROUP_BY),
        description="Split the totals by day, ISO week or month (on the report's clock) or by revenue account.",
    ),
]


@crud_schema_view(
    "transactions",
    tags=["transactions"],
    summaries={
        "create": "Record revenue collected outside the service",
    },
    descriptions={
        "list": "With neither `startDate` nor `endDate`, the last 24 hours (on `createdAt`); one bound alone leaves "
        "the other end open.",
        "create": "One settlement sum: creates `type: external_revenue`, `paymentStatus: paid`. Nothing is charged "
        "to anyone.",
    },
    summary=extend_schema(
        operation_id="transactions_summary",
        summary="Revenue report over a period",
        description="Totals of the transactions whose `occurredAt` falls in `startDate`..`endDate` (whole days on "
        "the club's clock with `clubId`, else the organization's; default the last 30 days, at most 366), `void` "
        "ones left out. Charges and outside revenue make `count`, `gross` (tax-inclusive, paid or not) and `tax`; "
        "refund transactions and the refunds a partner reported on a charge make `refunded`; `net` = `gross` - "
        "`refunded`. Money is rounded at the currency's precision. Counts against the `reports` bucket (20 per "
        "minute).",
        parameters=SUMMARY_PARAMETERS,
        responses=shape_serializer(TransactionSummary),
        filters=False,
    ),
    refund=extend_schema(
        operation_id="transactions_refund",
        summary="Refund revenue collected outside the service",
        description="Creates a `type: refund` transaction with `refundOfId` and updates the original's "
        "`refundedAmount` and `paymentStatus`. Nothing is paid out. 409 `NOT_EXTERNAL_REVENUE` for a transaction "
        "not recorded through `POST /transactions`; 409 `REFUND_EXCEEDS_BALANCE` above what is left to refund "
        "(`details.refundable`).",
        request=TransactionRefundSerializer,
        responses={
            201: TRANSACTION.serializer,
            409: OpenApiResponse(ERROR_REF, description="NOT_EXTERNAL_REVENUE, REFUND_EXCEEDS_BALANCE"),
        },
    ),
)
class TransactionViewSet(CreateResourceMixin, ResourceViewSet):
    """What a payer owes for one thing ("charges" in the admin apps), outside revenue and its refunds."""

    queryset = Transaction.objects.all()
    resource = TRANSACTION
    filterset_class = TransactionFilterSet
    cache_pages = False  # without dates the list is the last DEFAULT_WINDOW before now, which moves by itself
    required_scopes = crud_scopes("transactions", read=("list", "retrieve", "summary"), write=("create", "refund"))
    rate_buckets = {"summary": REPORTS}

    write_serializer = ExternalRevenueCreateSerializer

    writes = Writes(create=services.record_external_revenue)

    @action(detail=True, methods=["post"], url_path="refund")
    def refund(self, request, pk=None):
        data = self.validated(TransactionRefundSerializer)
        refund = services.refund_external_revenue(self.organization, self.get_object(), data)
        return self.created(self.present(refund.pk), location=f"/v1/platform/transactions/{refund.pk}")

    @action(detail=False, methods=["get"], url_path="summary")
    def summary(self, request):
        period = report_period(request.query_params, self.organization)
        group_by = request.query_params.get("groupBy") or None
        if group_by is not None and group_by not in reports.GROUP_BY:
            raise ValidationFailed({"groupBy": [f"Must be one of: {', '.join(reports.GROUP_BY)}."]})
        body: TransactionSummary = reports.revenue_summary(self.organization, period, group_by)
        return Response(body)
