"""The subscription API: URL rules, event types and their scopes, the secret shown once, rotation, disable and
re-enable, delete."""

import datetime as dt

import pytest
from django.utils import timezone

from apps.webhooks import delivery
from apps.webhooks.models import WebhookDelivery, WebhookSubscription
from tests.webhooks.conftest import WEBHOOKS, subscribe, subscription
from tests.webhooks.factories import PUBLIC_URL, make_delivery


def fields_of(response):
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "VALIDATION_ERROR"
    return body["details"]["fields"]


def test_create_shows_the_secret_once_and_stores_the_credentials_scopes(api, client_for):
    body = subscribe(api, PUBLIC_URL, ["booking.created", "contact.updated"], description="CRM sync")
    assert body["secret"].startswith("whsec_")
    assert body["events"] == ["booking.created", "contact.updated"]
    assert (body["isActive"], body["disabledReason"], body["description"]) == (True, None, "CRM sync")
    assert "secret" not in api.get(f"{WEBHOOKS}/{body['id']}").json()
    assert all("secret" not in item for item in api.get(WEBHOOKS).json()["data"])

    narrow = client_for("webhooks:write webhooks:read bookings:read")
    created = subscribe(narrow, PUBLIC_URL, ["booking.created"])
    assert subscription(created).scopes == ["bookings:read", "webhooks:read", "webhooks:write"]


@pytest.mark.parametrize(
    "url, message",
    [
        ("http://93.184.215.14/hook", "https"),
        ("https://127.0.0.1/hook", "private"),
        ("https://10.1.2.3/hook", "private"),
        ("https://169.254.169.254/latest/meta-data", "private"),
        ("https://[::1]/hook", "private"),
        ("https://[::ffff:192.168.0.1]/hook", "private"),
        ("https://100.64.0.1/hook", "private"),
        ("https://localhost/hook", "private"),
        ("https://93.184.215.14/" + "a" * 3000, "2048"),
        ("ftp://93.184.215.14/x", "https"),
        ("https://user:pw@93.184.215.14/x", "credentials"),
        ("not a url", ""),
        ("https://no-such-host.invalid/hook", "resolve"),
    ],
)
def test_urls_refused(api, url, message):
    fields = fields_of(api.post(WEBHOOKS, {"url": url, "events": ["*"]}, format="json"))
    assert list(fields) == ["url"]
    assert message in fields["url"][0]
    assert not WebhookSubscription.objects.exists()


def test_private_addresses_are_allowed_only_with_the_development_switch(api, settings):
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True
    assert subscribe(api, "http://127.0.0.1:9/hook")["url"] == "http://127.0.0.1:9/hook"


@pytest.mark.parametrize(
    "events, message",
    [
        (["booking.exploded"], "Unknown event type: booking.exploded."),
        (["*", "booking.created"], "stands alone"),
        ([], "empty"),
        ("booking.created", "list"),
    ],
)
def test_event_types_validated(api, events, message):
    fields = fields_of(api.post(WEBHOOKS, {"url": PUBLIC_URL, "events": events}, format="json"))
    assert message in str(fields["events"])


def test_each_type_needs_its_read_scope(client_for):
    client = client_for("webhooks:write bookings:read")
    response = client.post(
        WEBHOOKS, {"url": PUBLIC_URL, "events": ["booking.created", "contact.created"]}, format="json"
    )
    assert response.status_code == 403
    assert response.json() == {"error": "Insufficient access scope", "requiredScope": "contacts:read"}
    assert not WebhookSubscription.objects.exists()
    # "*" needs no particular scope: it receives the types the stored scopes allow
    assert subscribe(client, PUBLIC_URL, ["*"])["events"] == ["*"]


def test_patch_checks_url_and_types_and_reenabling_clears_the_reason(api, client_for):
    body = subscribe(api, PUBLIC_URL, ["booking.created"])
    row = subscription(body)
    row.is_active, row.disabled_reason, row.failing_since = False, "failing", timezone.now()
    row.save()
    url = f"{WEBHOOKS}/{body['id']}"
    assert list(fields_of(api.patch(url, {"url": "https://192.168.1.1/x"}, format="json"))) == ["url"]
    limited = client_for("webhooks:write")
    assert limited.patch(url, {"events": ["contact.created"]}, format="json").json()["requiredScope"] == (
        "contacts:read"
    )
    response = api.patch(url, {"isActive": True, "events": ["contact.created"]}, format="json")
    assert response.status_code == 200
    assert (response.json()["isActive"], response.json()["disabledReason"]) == (True, None)
    row.refresh_from_db()
    assert row.failing_since is None and row.events == ["contact.created"]


def test_rotation_keeps_two_live_secrets_for_a_day(api):
    body = subscribe(api, PUBLIC_URL)
    first = body["secret"]
    rotated = api.post(f"{WEBHOOKS}/{body['id']}/rotate-secret")
    assert rotated.status_code == 200
    second = rotated.json()["secret"]
    assert second.startswith("whsec_") and second != first
    row = subscription(body)
    now = timezone.now()
    assert delivery.live_secrets(row, now) == [second, first]
    assert delivery.live_secrets(row, now + dt.timedelta(hours=24, seconds=1)) == [second]
    third = api.post(f"{WEBHOOKS}/{body['id']}/rotate-secret").json()["secret"]
    row.refresh_from_db()
    assert delivery.live_secrets(row, timezone.now()) == [third, second]  # at most two: the oldest dropped


def test_delete_drops_pending_deliveries(api, organization):
    body = subscribe(api, PUBLIC_URL)
    make_delivery(subscription(body))
    assert api.delete(f"{WEBHOOKS}/{body['id']}").status_code == 204
    assert not WebhookDelivery.objects.exists()
    assert api.get(f"{WEBHOOKS}/{body['id']}").status_code == 404
