"""Invoices (`/v1/platform/invoices`): read-only list and items, and the amount invoiced over a period."""

from drf_spectacular.utils import extend_schema
from rest_framework.decorators import action
from rest_framework.response import Response

from apps.api.ratelimit import REPORTS
from apps.api.resources import shape_serializer
from apps.api.schema import crud_schema_view
from apps.api.scopes import crud_scopes
from apps.api.views import ResourceViewSet
from apps.clubs.report_period import PERIOD_PARAMETERS, report_period

from .. import reports
from ..filters import InvoiceFilterSet
from ..models import Invoice
from ..resources import INVOICE, InvoiceSummary


@crud_schema_view(
    "invoices",
    tags=["invoices"],
    descriptions={
        "list": "Newest `issueDate` first. Invoices are issued by the service when something priced is sold; "
        "there are no invoice writes. Each read returns a fresh `pdfUrl`.",
        "retrieve": "With its `lines`. `pdfUrl` is a signed link to the PDF that needs no credential and expires 7 "
        "days after this read; a wrong or expired link answers 404.",
    },
    summary=extend_schema(
        operation_id="invoices_summary",
        summary="Amount invoiced over a period",
        description="Totals of the invoices whose `issueDate` falls in `startDate`..`endDate` (whole days; default "
        "the last 30 days, at most 366), of one club with `clubId`; `void` and `draft` invoices are left out. "
        "`totalOutstanding` is what the `open` ones still owe. Money is rounded at the currency's precision. "
        "Counts against the `reports` bucket (20 per minute).",
        parameters=PERIOD_PARAMETERS,
        responses=shape_serializer(InvoiceSummary),
        filters=False,
    ),
)
class InvoiceViewSet(ResourceViewSet):
    """Invoices the service issued for what was sold (read-only)."""

    queryset = Invoice.objects.all()
    resource = INVOICE
    filterset_class = InvoiceFilterSet
    cache_pages = False  # each read signs fresh `pdfUrl` links, valid for 7 days from that read
    required_scopes = crud_scopes("invoices", read=("list", "retrieve", "summary"), write=())
    rate_buckets = {"summary": REPORTS}

    @action(detail=False, methods=["get"], url_path="summary")
    def summary(self, request):
        body: InvoiceSummary = reports.invoice_summary(
            self.organization, report_period(request.query_params, self.organization)
        )
        return Response(body)
