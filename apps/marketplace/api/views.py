"""The public marketplace API: no credential (an `Authorization` header is ignored), no CORS headers, per-address
rate limits, its own error bodies (`{error, details?}`), and nothing written.

Every view derives from `MarketplaceView`, which fixes, on DRF's hooks and in order: the method (an unserved one is
the same 404 as an unserved path, `OPTIONS` included), the address's rate limits (429; `AddressThrottle` over the
view's `address_limits`, `apps.api.public_limits`), the body size (413), a NUL in a query parameter (400 naming
it), then the handler.
"""

import datetime as dt
import logging

from django.conf import settings
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions as drf_exceptions
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.api import bodylimit, public_limits, ratelimit
from apps.api.exceptions import ValidationFailed, to_api_error
from apps.api.middleware import PUBLIC_NOT_FOUND, json_response
from apps.api.pagination import page_body
from apps.api.resources import shape_serializer
from apps.api.views import check_query_params
from apps.kernel import db_routing

from .. import freshness, gazetteer, offers, search
from ..profile import ClubNotFound, club_profile
from ..shapes import ClubListingPage, ClubProfile, MarketplaceError, OfferPage
from .serializers import ClubSearchQuery, OfferSearch

logger = logging.getLogger("apps.marketplace")

TAGS = ["marketplace"]


class RouteNotFound(Exception):
    """A method no marketplace route serves on this path."""


class MarketplaceIssues(Exception):
    """A validation failure: `issues` = [{path, message}]."""

    def __init__(self, issues: list[dict]):
        super().__init__(issues)
        self.issues = issues


def issues_from_fields(fields: dict) -> list[dict]:
    return [
        {"path": "body" if path == "nonFieldErrors" else path, "message": message}
        for path, messages in fields.items()
        for message in messages
    ]


def marketplace_error(exc) -> Response:
    """The marketplace body for any failure; an unexpected one is logged and answered without a trace."""
    if isinstance(exc, MarketplaceIssues):
        return Response({"error": "Invalid request", "details": {"issues": exc.issues}}, status=400)
    if isinstance(exc, ClubNotFound):
        return Response({"error": "Club not found"}, status=404)
    if isinstance(exc, RouteNotFound | drf_exceptions.MethodNotAllowed):
        return Response(dict(PUBLIC_NOT_FOUND), status=404)
    if isinstance(exc, drf_exceptions.Throttled):
        response = Response({"error": "Too many requests"}, status=429)
        response["Retry-After"] = str(int(exc.wait or 1))
        response["Cache-Control"] = "no-store"
        return response
    if isinstance(exc, drf_exceptions.ParseError | drf_exceptions.UnsupportedMediaType):
        issue = {"path": "body", "message": "The request body must be a JSON object (application/json)."}
        return Response({"error": "Invalid request", "details": {"issues": [issue]}}, status=400)
    error = to_api_error(exc)
    if error is None:
        logger.exception("Unhandled error on a marketplace request")
        return Response({"error": "Internal error"}, status=500)
    if isinstance(error, ValidationFailed):
        issues = issues_from_fields(error.details["fields"])
        return Response({"error": "Invalid request", "details": {"issues": issues}}, status=400)
    if error.code == "INVALID_JSON":  # the parser's own refusals (a body nested too deep)
        issue = {"path": "body", "message": error.message}
        return Response({"error": "Invalid request", "details": {"issues": [issue]}}, status=400)
    if error.status_code == 404:
        return Response(dict(PUBLIC_NOT_FOUND), status=404)
    if error.status_code == 429:
        body = {"error": "Too many requests"}
    elif error.status_code == 413:
        body = {"error": "Request body too large"}
    else:
        body = {"error": error.message}
    response = Response(body, status=error.status_code)
    for name, value in error.headers.items():
        response[name] = value
    return response


class MarketplaceView(APIView):
    """Base of the marketplace views: declare `address_limits` (groups of `apps.api.public_limits`)."""

    authentication_classes = []
    permission_classes = []
    throttle_classes = [public_limits.AddressThrottle]
    address_limits = (public_limits.MARKETPLACE,)
    http_method_names = ["get", "head"]
    replica_reads = False  # a search: may read from a configured replica (apps/kernel/db_routing.py)

    def get_exception_handler(self):
        return lambda exc, context: marketplace_error(exc)

    def http_method_not_allowed(self, request, *args, **kwargs):
        raise RouteNotFound()

    def options(self, request, *args, **kwargs):
        raise RouteNotFound()

    def initial(self, request, *args, **kwargs):
        if request.method.lower() not in self.http_method_names or not hasattr(self, request.method.lower()):
            raise RouteNotFound()
        super().initial(request, *args, **kwargs)  # no authentication or permission: the throttles (429)
        bodylimit.enforce(request._request)
        check_query_params(request)
        if self.replica_reads:
            db_routing.read_from_replica(read_only=True)  # a search only reads, also when it is a POST

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        state = getattr(request, "_rate_limit_state", None)
        if state is not None:
            ratelimit.apply_headers(response, state)
        if "Allow" in response:
            del response["Allow"]
        return response

    def validated(self, serializer_class, data) -> dict:
        serializer = serializer_class(data=data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data


def resolve_point(data: dict):
    """The point searched: `lat`/`lng` when given, else the place `location` names (400 naming it if unknown)."""
    if data.get("lat") is not None:
        return search.Point(data["lat"], data["lng"])
    location = (data.get("location") or "").strip()
    if not location:
        return None
    place = gazetteer.resolve(location)
    if place is None:
        raise MarketplaceIssues([{"path": "location", "message": f"Unknown place: `{location[:100]}`."}])
    return search.Point(place.latitude, place.longitude)


ERRORS = {
    400: OpenApiResponse(shape_serializer(MarketplaceError), description="Invalid request"),
    429: OpenApiResponse(shape_serializer(MarketplaceError), description="Too many requests (see Retry-After)"),
    500: OpenApiResponse(shape_serializer(MarketplaceError), description="Internal error"),
}


class ClubSearchView(MarketplaceView):
    replica_reads = True

    @extend_schema(
        operation_id="marketplace_search_clubs",
        summary="Search gyms",
        description="Listed gyms matching a name or sport, a sport, a place and a day, nearest first (by name when "
        "no place or point is given). A place is resolved offline from a gazetteer of cities; `lat`/`lng` win over "
        "it. No credential; 120 requests per minute per client address.",
        tags=TAGS,
        auth=[],
        parameters=[ClubSearchQuery],
        responses={200: OpenApiResponse(shape_serializer(ClubListingPage), description="OK"), **ERRORS},
    )
    def get(self, request):
        data = self.validated(ClubSearchQuery, request.query_params.dict())
        rows, total = search.search_clubs(
            q=(data.get("q") or "").strip() or None,
            sport=(data.get("sport") or "").strip() or None,
            point=resolve_point(data),
            radius_km=data["radiusKm"],
            day=data.get("date"),
            limit=data["limit"],
            offset=data["offset"],
        )
        return Response(page_body(rows, total, data["limit"], data["offset"]))


class ClubProfileView(MarketplaceView):
    @extend_schema(
        operation_id="marketplace_club_get",
        summary="Get a gym",
        description="One listed gym: courts with tax-inclusive hourly rates, public passes, instructors and the "
        "public classes of the next 14 days (at most 50). No credential; 120 requests per minute per client "
        "address.",
        tags=TAGS,
        auth=[],
        parameters=[
            OpenApiParameter("slug", str, OpenApiParameter.PATH, description="The gym's marketplace slug."),
            OpenApiParameter("locale", str, description="Language code for names and descriptions."),
        ],
        responses={
            200: OpenApiResponse(shape_serializer(ClubProfile), description="OK"),
            404: OpenApiResponse(shape_serializer(MarketplaceError), description="Club not found"),
            **ERRORS,
        },
    )
    def get(self, request, slug):
        locale = (request.query_params.get("locale") or "").strip()[:10] or None
        return Response(club_profile(slug, locale=locale))


class OfferSearchView(MarketplaceView):
    address_limits = (public_limits.MARKETPLACE_OFFERS,)
    http_method_names = ["post"]
    replica_reads = True

    @extend_schema(
        operation_id="marketplace_search_offers",
        summary="Search bookable court times",
        description="Free court times of listed gyms near a place on a day, nearest gym first, then by time, each "
        "priced as a non-member pays (tax-inclusive, the gym's currency) and with a `url` opening the gym's page "
        "with that time selected. Only reads. No credential; 30 requests per minute per client address.",
        tags=TAGS,
        auth=[],
        request=OfferSearch,
        responses={200: OpenApiResponse(shape_serializer(OfferPage), description="OK"), **ERRORS},
    )
    def post(self, request):
        data = self.validated(OfferSearch, request.data)
        point = resolve_point(data)
        search = {
            "latitude": point.latitude,
            "longitude": point.longitude,
            "day": data["date"],
            "sports": data["sports"],
            "earliest": dt.time.fromisoformat(data["earliestTime"]) if data.get("earliestTime") else None,
            "latest": dt.time.fromisoformat(data["latestTime"]) if data.get("latestTime") else None,
            "duration_minutes": data["durationMinutes"],
            "radius_km": data["radiusKm"],
            "limit": data["limit"],
            "offset": data["offset"],
        }
        seconds = settings.MARKETPLACE_OFFERS_CACHE_SECONDS
        rows, total = freshness.cached("offers", search, lambda: offers.search_offers(**search), seconds)
        return Response(page_body(rows, total, data["limit"], data["offset"]))


@csrf_exempt
def not_found(request, *args, **kwargs):
    """Any path under /v1/public/ that no marketplace route serves, whatever the method."""
    return json_response(dict(PUBLIC_NOT_FOUND), 404, request)
