"""Analytics (`/v1/platform/analytics/summary`): totals over a period, never the underlying people or sales."""

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from apps.api.ratelimit import REPORTS
from apps.api.resources import shape_serializer
from apps.api.views import PlatformAPIView
from apps.clubs.report_period import PERIOD_PARAMETERS, report_period

from .. import services
from ..resources import AnalyticsSummary


class AnalyticsSummaryView(PlatformAPIView):
    """Totals of the organization's (or one club's) activity over a period."""

    required_scopes = {"get": "analytics:read"}
    rate_buckets = {"get": REPORTS}

    @extend_schema(
        operation_id="analytics_summary",
        summary="Analytics totals over a period",
        description="Counts and sums over `startDate`..`endDate` (whole days on the club's clock with `clubId`, else "
        "the organization's; default the last 30 days, at most 366), never a person or a sale. Counts against the "
        "`reports` bucket (20 per minute).",
        parameters=PERIOD_PARAMETERS,
        responses=shape_serializer(AnalyticsSummary),
        tags=["analytics"],
    )
    def get(self, request):
        period = report_period(request.query_params, self.organization)
        body: AnalyticsSummary = services.analytics_summary(self.organization, period)
        return Response(body)
