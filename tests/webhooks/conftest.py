"""A real receiver on loopback (pytest-httpserver) that records what it was sent, and helpers that subscribe it."""

import pytest
from standardwebhooks.webhooks import Webhook

from apps.webhooks.models import WebhookSubscription

WEBHOOKS = "/v1/platform/webhooks"


@pytest.fixture
def private_ok(settings):
    """Loopback receivers are private addresses: allowed only with the development switch."""
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True
    return settings


@pytest.fixture
def receiver(httpserver, private_ok):
    """The loopback receiver; `received(httpserver)` lists what reached it."""
    return httpserver


def received(server, path="/hook"):
    return [request for request, _response in server.log if request.path == path]


def verify(secret: str, request) -> dict:
    """The body of a received delivery, verified with the Standard Webhooks reference library."""
    return Webhook(secret).verify(request.get_data(), dict(request.headers))


def subscribe(api, url, events=("*",), **fields) -> dict:
    response = api.post(WEBHOOKS, {"url": url, "events": list(events), **fields}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def subscription(body) -> WebhookSubscription:
    return WebhookSubscription.objects.get(pk=body["id"])
