"""Webhook delivery lag and failures in /metrics: attempts by outcome (recorded by the worker), and the backlog
read from the database at scrape time."""

import datetime as dt

from django.test import Client
from django.utils import timezone

from apps.webhooks.models import WebhookDelivery
from tests.observability.test_metrics import samples, value
from tests.webhooks.conftest import subscribe


def scrape():
    return samples(Client().get("/metrics"))


def create_contact(api, capture, email):
    with capture(execute=True):
        assert api.post("/v1/platform/contacts", {"firstName": "Noa", "email": email}, format="json").status_code == 201


def test_a_failed_and_a_sent_delivery_are_counted_with_their_lag(api, receiver, django_capture_on_commit_callbacks):
    receiver.expect_oneshot_request("/hook").respond_with_data("no", status=422)
    receiver.expect_oneshot_request("/hook").respond_with_data("ok", status=200)
    subscribe(api, receiver.url_for("/hook"), ["contact.created"])
    before = scrape()
    create_contact(api, django_capture_on_commit_callbacks, "a@example.com")
    create_contact(api, django_capture_on_commit_callbacks, "b@example.com")
    assert sorted(WebhookDelivery.objects.values_list("status", flat=True)) == ["failed", "succeeded"]
    after = scrape()
    for outcome in ("failed", "sent"):
        assert (
            value(after, "webhook_delivery_attempts_total", outcome=outcome)
            - value(before, "webhook_delivery_attempts_total", outcome=outcome)
            == 1
        )
        assert (
            value(after, "webhook_delivery_lag_seconds_count", outcome=outcome)
            - value(before, "webhook_delivery_lag_seconds_count", outcome=outcome)
            == 1
        )


def test_the_backlog_and_the_oldest_due_delivery_are_read_at_scrape_time(
    api, receiver, django_capture_on_commit_callbacks
):
    receiver.expect_request("/hook").respond_with_data("busy", status=503)
    subscribe(api, receiver.url_for("/hook"), ["contact.created"])
    assert value(scrape(), "webhook_deliveries_pending") == 0
    create_contact(api, django_capture_on_commit_callbacks, "a@example.com")
    row = WebhookDelivery.objects.get()
    assert row.status == "pending"  # a 503 is retried later
    found = scrape()
    assert value(found, "webhook_deliveries_pending") == 1
    assert value(found, "webhook_delivery_oldest_due_seconds") == 0  # its retry is not due yet
    WebhookDelivery.objects.filter(pk=row.pk).update(next_attempt_at=timezone.now() - dt.timedelta(minutes=5))
    assert 299 <= value(scrape(), "webhook_delivery_oldest_due_seconds") <= 330
