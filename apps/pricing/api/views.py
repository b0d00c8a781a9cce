"""Pricing rules (CRUD) and the price quote of an area booking."""

import datetime as dt

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.decorators import action
from rest_framework.response import Response

from apps.api.exceptions import ValidationFailed
from apps.api.presenters import number
from apps.api.resources import shape_serializer
from apps.api.schema import crud_schema_view
from apps.api.scopes import crud_scopes
from apps.api.views import CreateResourceMixin, DestroyResourceMixin, ResourceViewSet, UpdateResourceMixin, Writes

from .. import services
from ..filters import PricingRuleFilterSet
from ..models import PricingRule
from ..resources import PRICING_RULE, PriceQuote
from .serializers import PricingRuleInputSerializer, QuoteQuerySerializer

QUOTE_PARAMETERS = [
    OpenApiParameter("areaId", int, required=True, description="The area to book."),
    OpenApiParameter("startTime", str, required=True, description="Date-time with an offset or `Z`."),
    OpenApiParameter("endTime", str, required=True, description="Date-time with an offset; at most 7 days later."),
    OpenApiParameter("contactId", int, description="Who books: decides the member and plan audiences."),
    OpenApiParameter(
        "playerCount", int, description="Players (1 to the area type's `maxPlayers`); no effect on price."
    ),
    OpenApiParameter("sport", str, description="The booking's sport; defaults to the area's only sport."),
]


@crud_schema_view(
    "pricing_rules",
    tags=["pricing-rules"],
    descriptions={"partial_update": "Partial update. Turn a rule off with `isActive: false`."},
    destroy=extend_schema(
        operation_id="pricing_rules_delete",
        tags=["pricing-rules"],
        summary="Delete a pricing rule",
        responses={204: OpenApiResponse(description="Deleted")},
    ),
    quote=extend_schema(
        operation_id="pricing_rules_quote",
        tags=["pricing-rules"],
        summary="Quote an area booking's price",
        description="The price the active rules give a booking, priced per minute in each band of the club's wall "
        "clock. No side effects.",
        parameters=QUOTE_PARAMETERS,
        responses=shape_serializer(PriceQuote),
        filters=False,
    ),
)
class PricingRuleViewSet(CreateResourceMixin, UpdateResourceMixin, DestroyResourceMixin, ResourceViewSet):
    """Adjustments of areas' hourly rates by club, area, type, sport, day, time of day, dates and audience."""

    queryset = PricingRule.objects.all()
    resource = PRICING_RULE
    filterset_class = PricingRuleFilterSet
    required_scopes = crud_scopes(
        "pricing-rules", read=("list", "retrieve", "quote"), write=("create", "partial_update", "destroy")
    )

    write_serializer = PricingRuleInputSerializer

    writes = Writes(create=services.create_pricing_rule, update=services.update_pricing_rule)

    @action(detail=False, methods=["get"], url_path="quote")
    def quote(self, request):
        serializer = QuoteQuerySerializer(data=request.query_params.dict(), context={"request": request})
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        area = data["areaId"]
        max_players = area.area_type.max_players if area.area_type_id else None
        if max_players and data.get("playerCount", 1) > max_players:
            raise ValidationFailed({"playerCount": [f"Must be at most {max_players} (the area type's `maxPlayers`)."]})
        services.check_quote_window(data["startTime"], data["endTime"])
        result = services.quote_booking(
            self.organization,
            area,
            data["startTime"],
            data["endTime"],
            contact=data.get("contactId"),
            sport=data.get("sport"),
        )
        body: PriceQuote = {
            "areaId": area.id,
            "startTime": data["startTime"].astimezone(dt.UTC),
            "endTime": data["endTime"].astimezone(dt.UTC),
            "durationMinutes": result.duration_minutes,
            "priceBeforeTax": number(result.price_before_tax),
            "tax": number(result.tax),
            "price": number(result.price),
            "appliedRules": result.applied_rules,
        }
        return Response(body)
