"""A real Celery worker against Redis delivers webhooks, and a worker killed (SIGKILL) in the middle of a delivery
loses nothing: the lease expires and the next worker delivers the same event."""

import threading
import time

import pytest
from django.utils import timezone
from pytest_httpserver import HTTPServer
from werkzeug import Response

from apps.webhooks import tasks
from apps.webhooks.models import WebhookDelivery
from tests.celery_worker import real_worker, wait_until
from tests.webhooks.conftest import received, subscribe, verify

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

WORKER_ENV = {"WEBHOOK_ALLOW_PRIVATE_NETWORKS": "true", "WEBHOOK_LEASE_SECONDS": "3"}


def create_contact(api, email):
    response = api.post("/v1/platform/contacts", {"firstName": "Noa", "email": email}, format="json")
    assert response.status_code == 201, response.content


def test_a_real_worker_delivers_an_event_end_to_end(client_for, receiver, settings):
    receiver.expect_request("/hook").respond_with_data("ok")
    with real_worker(settings, "webhooks-e2e", queues=("webhooks",), env=WORKER_ENV) as proc:
        api = client_for("*")  # a key hashed with the worker's pepper
        hook = subscribe(api, receiver.url_for("/hook"), ["contact.created"])
        create_contact(api, "e2e@example.com")  # commits; the relay queues the delivery on the webhooks queue
        wait_until(lambda: WebhookDelivery.objects.filter(status="succeeded").exists(), proc, seconds=30)
    (request,) = received(receiver)
    body = verify(hook["secret"], request)
    assert body["type"] == "contact.created" and body["data"]["email"] == "e2e@example.com"


def test_a_worker_killed_mid_delivery_loses_nothing(client_for, receiver, settings):
    arrived = threading.Event()
    calls = []

    def slow_then_fast(request):
        calls.append(request.headers["webhook-id"])
        if len(calls) == 1:
            arrived.set()
            time.sleep(4)  # the worker is killed while waiting for this answer
        return Response("ok")

    receiver.expect_request("/hook").respond_with_handler(slow_then_fast)
    with real_worker(settings, "webhooks-doomed", queues=("webhooks",), env=WORKER_ENV) as proc:
        api = client_for("*")
        hook = subscribe(api, receiver.url_for("/hook"), ["contact.created"])
        create_contact(api, "kill@example.com")
        assert arrived.wait(30), proc.stderr.read().decode()[-2000:] if proc.poll() is not None else "no request"
        proc.kill()  # SIGKILL: no cleanup, no acknowledgement, the lease stays
        proc.wait()
    delivery = WebhookDelivery.objects.get()
    assert (delivery.status, delivery.attempts) == ("pending", 0)
    assert delivery.lease_until is not None

    with real_worker(settings, "webhooks-heir", queues=("webhooks",), env=WORKER_ENV) as proc:
        # the beat's sweep: once the lease has expired the delivery is queued again
        wait_until(lambda: timezone.now() > delivery.lease_until, proc, seconds=10)

        def delivered():
            tasks.sweep.apply(kwargs={"now": max(timezone.now(), delivery.sweep_after)})
            return WebhookDelivery.objects.filter(pk=delivery.pk, status="succeeded").exists()

        wait_until(delivered, proc, seconds=40)
    delivery.refresh_from_db()
    assert delivery.attempts == 1
    assert len(calls) == 2 and calls[0] == calls[1] == delivery.event_id  # the same webhook-id, at least once
    assert verify(hook["secret"], received(receiver)[-1])["id"] == delivery.event_id


@pytest.fixture
def threaded_receiver(private_ok):
    """A receiver answering requests in parallel (the shared one answers one at a time)."""
    server = HTTPServer(host="127.0.0.1", threaded=True)
    server.start()
    yield server
    server.clear()
    if server.is_running():
        server.stop()


def test_a_slow_receiver_does_not_hold_up_another_subscription(client_for, threaded_receiver, settings):
    receiver = threaded_receiver
    """Two worker processes, one attempt per subscription at a time: while one process waits on a slow receiver,
    the slow subscription's other deliveries are deferred, not waited on, and the fast one goes out at once."""
    slow_calls = []

    def slow(request):
        slow_calls.append(time.time())
        time.sleep(3)
        return Response("ok")

    fast_calls = []

    def fast(request):
        fast_calls.append(time.time())
        return Response("ok")

    receiver.expect_request("/slow").respond_with_handler(slow)
    receiver.expect_request("/fast").respond_with_handler(fast)
    env = {**WORKER_ENV, "WEBHOOK_LEASE_SECONDS": "30", "WEBHOOK_MAX_CONCURRENCY_PER_SUBSCRIPTION": "1"}
    with real_worker(settings, "webhooks-fair", queues=("webhooks",), env=env, processes=2) as proc:
        api = client_for("*")
        subscribe(api, receiver.url_for("/slow"), ["contact.created"])
        for i in range(4):
            create_contact(api, f"slow{i}@example.com")
        wait_until(lambda: slow_calls, proc, seconds=30)
        subscribe(api, receiver.url_for("/fast"), ["contact.updated"])
        contact_id = api.get("/v1/platform/contacts").json()["data"][0]["id"]
        assert (
            api.patch(f"/v1/platform/contacts/{contact_id}", {"phone": "+34600000001"}, format="json").status_code
            == 200
        )
        wait_until(lambda: fast_calls, proc, seconds=30)
        # delivered while the slow receiver was still holding its first attempt, not behind it
        assert fast_calls[0] < slow_calls[0] + 3, fast_calls[0] - slow_calls[0]
        assert len(slow_calls) == 1  # the slow subscription's other deliveries were deferred meanwhile
        waiting = WebhookDelivery.objects.filter(event_type="contact.created", status="pending", attempts=0)
        assert waiting.count() == 4  # one in its attempt (leased), three deferred
        assert waiting.filter(lease_until__isnull=False).count() == 1
