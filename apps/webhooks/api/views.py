"""Webhook subscriptions (`/v1/platform/webhooks`), their delivery log and replay, and the event feed
(`/v1/platform/webhook-events`). Views stay thin: validate, call a service, present."""

from django.urls import path
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.routers import SimpleRouter

from apps.api.exceptions import NotFound, ValidationFailed
from apps.api.filters import enum_list_value
from apps.api.pagination import parse_limit
from apps.api.resources import shape_serializer
from apps.api.schema import crud_schema_view
from apps.api.scopes import crud_scopes
from apps.api.views import (
    MAX_DB_ID,
    CreateResourceMixin,
    DestroyResourceMixin,
    ListResourceMixin,
    PlatformViewSet,
    ResourceViewSet,
    UpdateResourceMixin,
    Writes,
)
from apps.domain_events.models import DomainEvent

from .. import services
from ..catalogue import EVENT_TYPES
from ..envelope import envelope
from ..filters import DeliveryFilterSet, WebhookFilterSet
from ..models import WebhookDelivery, WebhookSubscription
from ..resources import DELIVERY, WEBHOOK, Envelope, EventPage, ReplayQueued
from .serializers import ReplaySerializer, WebhookCreateSerializer, WebhookUpdateSerializer

ERROR = {"$ref": "#/components/schemas/Error"}
FEED_LIMIT_DEFAULT = 100
FEED_LIMIT_MAX = 500


@crud_schema_view(
    "webhooks",
    tags=["webhooks"],
    summaries={
        "list": "List webhook subscriptions",
        "retrieve": "Get a webhook subscription",
        "create": "Subscribe a URL to events",
        "partial_update": "Update a webhook subscription",
        "destroy": "Delete a webhook subscription",
    },
    descriptions={
        "list": "Never shows `secret`.",
        "create": "`url` must be https and must not resolve to a private, loopback, link-local or metadata address "
        '(400 naming `url`); redirects are never followed. `events`: event types or `["*"]`; each type needs its '
        "read scope on this credential (403 short body naming it). The credential's effective scopes are stored "
        "with the subscription and govern what is sent (e.g. `contactEmail` needs `contacts:read`). The answer "
        "carries `secret` (`whsec_…`), **shown once**.",
        "partial_update": "`url`, `events`, `description`, `isActive`. Changing `events` stores this credential's "
        "scopes as the subscription's. Re-enabling (`isActive: true`) clears `disabledReason` and the failure "
        "record.",
        "destroy": "204; its pending deliveries are dropped (never sent).",
    },
    rotate_secret=extend_schema(
        operation_id="webhooks_rotate_secret",
        summary="Rotate a webhook's signing secret",
        description="Returns the subscription with its new `secret`, shown once. For 24 hours every delivery "
        "carries both signatures (the new one first, space-separated in `webhook-signature`), then only the new "
        "one. Rotating again within those 24 hours drops the oldest secret: at most two are live.",
        request=None,
        responses={200: WEBHOOK.serializer},
    ),
    replay=extend_schema(
        operation_id="webhooks_replay",
        summary="Replay past events to a webhook",
        description="Queues a new delivery, for this subscription, of every event of the organization from "
        "`since` to `until` (default now; both inclusive; at most 30 days back) whose type the subscription "
        "receives (and, with `types`, is one of them), sent in the order the events were recorded, with their "
        "original event ids. 202 `{queued}`. One replay at a time per subscription: 409 `CONFLICT` while one "
        "still has unsent deliveries. `since` older than 30 days or after `until`: 400.",
        request=ReplaySerializer,
        responses={
            202: OpenApiResponse(shape_serializer(ReplayQueued), "Accepted: the deliveries are queued."),
            409: OpenApiResponse(ERROR, "CONFLICT: a replay is running, or the webhook is disabled."),
        },
    ),
)
class WebhookViewSet(CreateResourceMixin, UpdateResourceMixin, DestroyResourceMixin, ResourceViewSet):
    """Where the organization's events are delivered, signed (Standard Webhooks)."""

    queryset = WebhookSubscription.objects.all()
    resource = WEBHOOK
    filterset_class = WebhookFilterSet
    required_scopes = crud_scopes("webhooks", write=("create", "partial_update", "destroy", "rotate_secret", "replay"))

    write_serializer = WebhookCreateSerializer
    update_serializer = WebhookUpdateSerializer
    writes = Writes(delete=services.delete_subscription)

    def create(self, request, *args, **kwargs):
        # The one answer besides rotate-secret that carries the secret: the resource never presents it.
        data = self.validated(self.write_serializer)
        subscription, secret = services.create_subscription(self.organization, data, self.credential.effective_scopes)
        return self.created({**self.present(subscription.pk), "secret": secret}, subscription)

    def update_object(self, instance, data):
        services.update_subscription(instance, data, self.credential.effective_scopes)

    @action(detail=True, methods=["post"], url_path="rotate-secret")
    def rotate_secret(self, request, pk=None):
        subscription, secret = services.rotate_secret(self.get_object())
        return Response({**self.present(subscription.pk), "secret": secret})

    @action(detail=True, methods=["post"], url_path="replay")
    def replay(self, request, pk=None):
        subscription = self.get_object()
        data = self.validated(ReplaySerializer)
        queued = services.replay(subscription, data["since"], data.get("until"), data.get("types"))
        return Response({"queued": queued}, status=202)


@extend_schema_view(
    list=extend_schema(
        operation_id="webhook_deliveries_list",
        summary="A webhook's delivery log",
        description="Every delivery of the last 30 days with its latest attempt: `status`, `attempts`, "
        "`responseStatus`, the start of the answer (`responseBody`, at most 1 KiB), `durationMs`, `error`, and "
        "`nextAttemptAt` while retries remain. Ordering `-createdAt`.",
        responses={200: DELIVERY.serializer(many=True)},
        tags=["webhooks"],
    ),
)
class WebhookDeliveryViewSet(ListResourceMixin, PlatformViewSet):
    """The delivery log of one subscription."""

    queryset = WebhookDelivery.objects.all()
    resource = DELIVERY
    filterset_class = DeliveryFilterSet
    required_scopes = {"list": "webhooks:read", "redeliver": "webhooks:write"}

    def get_subscription(self) -> WebhookSubscription:
        subscription_id = int(self.kwargs["id"])
        subscription = None
        if subscription_id <= MAX_DB_ID:
            subscription = WebhookSubscription.objects.filter(
                organization=self.organization, pk=subscription_id
            ).first()
        if subscription is None:
            raise NotFound()
        return subscription

    def get_queryset(self):
        return super().get_queryset().filter(subscription=self.get_subscription())

    @extend_schema(
        operation_id="webhook_deliveries_redeliver",
        summary="Redeliver an event",
        description="Sends the same event again (the same event `id`, so the same `webhook-id`) as a new "
        "delivery, and returns it (201). A disabled webhook: 409 `CONFLICT`.",
        request=None,
        responses={201: DELIVERY.serializer, 409: OpenApiResponse(ERROR, "CONFLICT: the webhook is disabled.")},
        tags=["webhooks"],
    )
    def redeliver(self, request, id, deliveryId):  # noqa: N803 - the path parameter's API name
        delivery = self.get_queryset().filter(pk=deliveryId).first() if deliveryId <= MAX_DB_ID else None
        if delivery is None:
            raise NotFound()
        copy = services.redeliver(delivery)
        return self.created(self.present(copy.pk), location=f"/v1/platform/webhooks/{id}/deliveries")


def _feed_types(params) -> set[str] | None:
    raw = params.get("types")
    if raw in (None, ""):
        return None
    return set(enum_list_value("types", raw, tuple(EVENT_TYPES)) or ())


class WebhookEventViewSet(PlatformViewSet):
    """The event feed, for catching up after an outage."""

    queryset = DomainEvent.objects.all()
    pagination_class = None
    lookup_value_regex = r"[^/]+"
    required_scopes = {"feed": "webhooks:read", "retrieve": "webhooks:read"}

    def readable_types(self) -> set[str]:
        scopes = self.credential.effective_scopes
        return {name for name, event_type in EVENT_TYPES.items() if event_type.scope in scopes}

    def base_queryset(self):
        return DomainEvent.objects.filter(sequence__isnull=False, created_at__gte=services.feed_horizon())

    def get_object(self):
        event = self.get_queryset().filter(pk=self.kwargs["pk"], type__in=self.readable_types()).first()
        if event is None:
            raise NotFound()
        return event

    @extend_schema(
        operation_id="webhook_events_list",
        summary="The event feed",
        description="The organization's events of the last 30 days in the order they were recorded, each as the "
        "webhook envelope with `data` under this credential's scopes; types whose read scope the credential lacks "
        "are left out. Page with `after` = the previous page's `nextCursor` (exclusive). `nextCursor` is the id of "
        "the page's last event (also when `hasMore` is false), null on an empty page. An unknown `after`, or one "
        "older than 30 days: 400.",
        parameters=[
            OpenApiParameter("after", str, description="An event id (exclusive): the previous page's `nextCursor`."),
            OpenApiParameter("types", str, description="Comma list of event types."),
            OpenApiParameter("limit", int, description="Default 100, at most 500 (larger values are clamped)."),
        ],
        responses={200: shape_serializer(EventPage)},
        tags=["webhooks"],
    )
    def feed(self, request, *args, **kwargs):
        params = request.query_params
        limit = parse_limit(params.get("limit"), FEED_LIMIT_DEFAULT, FEED_LIMIT_MAX)
        types = self.readable_types()
        wanted = _feed_types(params)
        if wanted is not None:
            types &= wanted
        queryset = self.get_queryset().filter(type__in=sorted(types))
        after = (params.get("after") or "").strip()
        if after:
            cursor = self.get_queryset().filter(pk=after).values_list("sequence", flat=True).first()
            if cursor is None:
                raise ValidationFailed({"after": ["Unknown event id, or older than 30 days."]})
            queryset = queryset.filter(sequence__gt=cursor)
        events = list(queryset.order_by("sequence")[: limit + 1])
        has_more = len(events) > limit
        events = events[:limit]
        scopes = self.credential.effective_scopes
        return Response(
            {
                "data": [envelope(event, scopes) for event in events],
                "nextCursor": events[-1].pk if events else None,
                "hasMore": has_more,
            }
        )

    @extend_schema(
        operation_id="webhook_events_get",
        summary="Get one event",
        description="One event envelope (404 beyond 30 days, or when its type needs a scope the credential lacks).",
        parameters=[OpenApiParameter("id", str, OpenApiParameter.PATH, description="The event id (`evt_…`).")],
        responses={200: shape_serializer(Envelope)},
        tags=["webhooks"],
    )
    def retrieve(self, request, *args, **kwargs):
        return Response(envelope(self.get_object(), self.credential.effective_scopes))


router = SimpleRouter(trailing_slash=False)
router.register("webhooks", WebhookViewSet, basename="webhook")

urlpatterns = [
    path(
        "webhooks/<int:id>/deliveries",
        WebhookDeliveryViewSet.as_view({"get": "list"}),
        name="webhook-deliveries",
    ),
    path(
        "webhooks/<int:id>/deliveries/<int:deliveryId>/redeliver",
        WebhookDeliveryViewSet.as_view({"post": "redeliver"}),
        name="webhook-delivery-redeliver",
    ),
    path("webhook-events", WebhookEventViewSet.as_view({"get": "feed"}), name="webhook-events"),
    path("webhook-events/<str:pk>", WebhookEventViewSet.as_view({"get": "retrieve"}), name="webhook-event"),
    *router.urls,
]
