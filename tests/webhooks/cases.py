from django.utils import timezone

from apps.organizations.models import ApiKey
from tests.harness import EndpointCase
from tests.webhooks.factories import PUBLIC_URL, make_delivery, make_event, make_subscription


def _settle_key_usage(organization):
    ApiKey.objects.filter(organization=organization).update(last_used_at=timezone.now())


def webhook_ids(organization):
    return {"id": make_subscription(organization).id}


def webhook_rows(organization, n):
    _settle_key_usage(organization)
    for _ in range(n):
        make_subscription(organization)


def delivery_ids(organization):
    delivery = make_delivery(make_subscription(organization, url="https://93.184.215.14/log"))
    return {"id": delivery.subscription_id, "deliveryId": delivery.id}


def delivery_rows(organization, n):
    _settle_key_usage(organization)
    subscription = organization.webhooks.get(url="https://93.184.215.14/log")
    event = make_event(organization)
    for _ in range(n):
        make_delivery(subscription, event)


def event_ids(organization):
    return {"id": make_event(organization).id}


SINCE = (timezone.now() - timezone.timedelta(hours=1)).isoformat()

CASES = [
    EndpointCase("GET", "/v1/platform/webhooks", "webhooks:read", list_rows=webhook_rows),
    EndpointCase("GET", "/v1/platform/webhooks/{id}", "webhooks:read", setup=webhook_ids),
    EndpointCase("POST", "/v1/platform/webhooks", "webhooks:write", body={"url": PUBLIC_URL, "events": ["*"]}),
    EndpointCase("PATCH", "/v1/platform/webhooks/{id}", "webhooks:write", setup=webhook_ids, body={}),
    EndpointCase("DELETE", "/v1/platform/webhooks/{id}", "webhooks:write", setup=webhook_ids),
    EndpointCase("POST", "/v1/platform/webhooks/{id}/rotate-secret", "webhooks:write", setup=webhook_ids),
    EndpointCase(
        "POST", "/v1/platform/webhooks/{id}/replay", "webhooks:write", setup=webhook_ids, body={"since": SINCE}
    ),
    EndpointCase(
        "GET",
        "/v1/platform/webhooks/{id}/deliveries",
        "webhooks:read",
        setup=delivery_ids,
        list_rows=delivery_rows,
    ),
    EndpointCase(
        "POST",
        "/v1/platform/webhooks/{id}/deliveries/{deliveryId}/redeliver",
        "webhooks:write",
        setup=delivery_ids,
    ),
    EndpointCase("GET", "/v1/platform/webhook-events", "webhooks:read"),
    EndpointCase("GET", "/v1/platform/webhook-events/{id}", "webhooks:read", setup=event_ids),
]
