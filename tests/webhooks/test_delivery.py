"""Delivery to a real receiver on loopback: Standard Webhooks signatures, the retry schedule, what fails at once,
what disables, redelivery, and receivers that misbehave. Time is moved by passing `now`, never by waiting."""

import datetime as dt
import socket
import threading
import time

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import timezone
from werkzeug import Response

from apps.organizations.models import StaffMembership
from apps.webhooks import client, delivery, tasks
from apps.webhooks.choices import DeliveryStatus
from apps.webhooks.models import WebhookDelivery
from tests.webhooks.conftest import WEBHOOKS, received, subscribe, subscription, verify
from tests.webhooks.factories import make_delivery, make_event, make_subscription

CONTACTS = "/v1/platform/contacts"


@pytest.fixture
def admin_user(organization):
    user = get_user_model().objects.create_user("boss", email="boss@example.com", password="x")
    StaffMembership.objects.create(user=user, organization=organization, role="admin")
    staff = get_user_model().objects.create_user("desk", email="desk@example.com", password="x")
    StaffMembership.objects.create(user=staff, organization=organization, role="staff")
    return user


def create_contact(api, capture, email="noa@example.com"):
    with capture(execute=True):
        response = api.post(CONTACTS, {"firstName": "Noa", "email": email}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def only_delivery() -> WebhookDelivery:
    return WebhookDelivery.objects.get()


def test_a_write_is_delivered_signed_with_standard_webhooks(api, receiver, django_capture_on_commit_callbacks):
    receiver.expect_request("/hook", method="POST").respond_with_data("thanks")
    hook = subscribe(api, receiver.url_for("/hook"), ["contact.created"])
    contact = create_contact(api, django_capture_on_commit_callbacks)

    (request,) = received(receiver)
    body = verify(hook["secret"], request)
    row = only_delivery()
    assert body == {
        "id": row.event_id,
        "type": "contact.created",
        "createdAt": body["createdAt"],
        "organizationId": contact_org(api),
        "data": contact,
    }
    assert body["id"].startswith("evt_") and len(body["id"]) == 30
    assert request.headers["webhook-id"] == body["id"]
    assert request.headers["X-Platform-Event-Type"] == "contact.created"
    assert request.headers["X-Platform-Delivery-Id"] == str(row.pk)
    assert request.headers["User-Agent"] == "Platform-Webhooks/1"
    assert request.headers["Content-Type"] == "application/json"
    assert (row.status, row.attempts, row.response_status, row.response_body) == ("succeeded", 1, 200, "thanks")
    log = api.get(f"{WEBHOOKS}/{hook['id']}/deliveries").json()["data"]
    assert [(d["eventId"], d["status"], d["responseStatus"], d["attempts"]) for d in log] == [
        (body["id"], "succeeded", 200, 1)
    ]


def contact_org(api):
    return api.get("/v1/platform/me").json()["organization"]["id"]


def test_during_a_rotation_both_signatures_verify(api, receiver, django_capture_on_commit_callbacks):
    receiver.expect_request("/hook").respond_with_data("ok")
    hook = subscribe(api, receiver.url_for("/hook"))
    new_secret = api.post(f"{WEBHOOKS}/{hook['id']}/rotate-secret").json()["secret"]
    create_contact(api, django_capture_on_commit_callbacks)
    (request,) = received(receiver)
    assert len(request.headers["webhook-signature"].split(" ")) == 2
    assert verify(new_secret, request)["type"] == "contact.created"
    assert verify(hook["secret"], request)["type"] == "contact.created"
    # a day later only the new secret signs
    row = subscription(hook)
    row.previous_secret_expires_at = timezone.now() - dt.timedelta(seconds=1)
    row.save()
    create_contact(api, django_capture_on_commit_callbacks, email="second@example.com")
    later = received(receiver)[1]
    assert len(later.headers["webhook-signature"].split(" ")) == 1
    assert verify(new_secret, later)["type"] == "contact.created"


def test_a_500_is_retried_on_schedule_then_succeeds_with_the_same_webhook_id(
    api, receiver, django_capture_on_commit_callbacks
):
    receiver.expect_oneshot_request("/hook").respond_with_data("down", status=500)
    receiver.expect_request("/hook").respond_with_data("ok")
    hook = subscribe(api, receiver.url_for("/hook"))
    create_contact(api, django_capture_on_commit_callbacks)
    row = only_delivery()
    assert (row.status, row.attempts, row.response_status) == ("pending", 1, 500)
    wait = (row.next_attempt_at - row.last_attempt_at).total_seconds()
    assert 27 <= wait <= 33  # 30 s +-10 %
    assert tasks.sweep(now=row.next_attempt_at - dt.timedelta(seconds=1)) == 0  # not due yet
    tasks.sweep(now=row.sweep_after)
    first, second = received(receiver)
    assert first.headers["webhook-id"] == second.headers["webhook-id"] == row.event_id
    assert verify(hook["secret"], second)["id"] == row.event_id
    row.refresh_from_db()
    assert (row.status, row.attempts, row.response_status, row.next_attempt_at) == ("succeeded", 2, 200, None)


def test_the_retry_schedule():
    assert delivery.RETRY_DELAYS == (30, 120, 480, 1920, 7680, 30720, 122880)
    assert sum(delivery.RETRY_DELAYS) / 3600 == pytest.approx(45.5, abs=0.1)
    assert delivery.retry_delay(1, rng=lambda: 0.0) == pytest.approx(27)
    assert delivery.retry_delay(7, rng=lambda: 1.0) == pytest.approx(122880 * 1.1)


def test_retry_after_is_honoured_on_429(api, receiver, django_capture_on_commit_callbacks):
    receiver.expect_request("/hook").respond_with_response(
        Response("slow down", status=429, headers={"Retry-After": "600"})
    )
    subscribe(api, receiver.url_for("/hook"))
    create_contact(api, django_capture_on_commit_callbacks)
    row = only_delivery()
    assert row.status == "pending"
    assert (row.next_attempt_at - row.last_attempt_at).total_seconds() == pytest.approx(600, abs=1)


@pytest.mark.parametrize("status", [400, 401, 404, 422])
def test_other_4xx_fail_at_once(api, receiver, django_capture_on_commit_callbacks, status):
    receiver.expect_request("/hook").respond_with_data("no", status=status)
    hook = subscribe(api, receiver.url_for("/hook"))
    create_contact(api, django_capture_on_commit_callbacks)
    row = only_delivery()
    assert (row.status, row.attempts, row.next_attempt_at) == ("failed", 1, None)
    tasks.sweep(now=timezone.now() + dt.timedelta(days=3))
    assert len(received(receiver)) == 1
    assert subscription(hook).is_active


def test_410_disables_the_subscription_and_tells_the_admins(
    api, receiver, admin_user, django_capture_on_commit_callbacks
):
    receiver.expect_request("/hook").respond_with_data("gone", status=410)
    hook = subscribe(api, receiver.url_for("/hook"))
    create_contact(api, django_capture_on_commit_callbacks)
    assert only_delivery().status == "failed"
    body = api.get(f"{WEBHOOKS}/{hook['id']}").json()
    assert (body["isActive"], body["disabledReason"]) == (False, "gone")
    assert [m.to for m in mail.outbox] == [["boss@example.com"]]
    assert "disabled" in mail.outbox[0].subject
    create_contact(api, django_capture_on_commit_callbacks, email="later@example.com")
    assert len(received(receiver)) == 1  # nothing more is sent to a disabled subscription


def test_72_hours_of_failures_disable_after_a_warning_a_day_before(
    api, receiver, admin_user, django_capture_on_commit_callbacks
):
    receiver.expect_request("/hook").respond_with_data("down", status=503)
    hook = subscribe(api, receiver.url_for("/hook"))
    create_contact(api, django_capture_on_commit_callbacks)
    started = subscription(hook).failing_since
    assert started is not None

    tasks.check_failing_subscriptions(now=started + dt.timedelta(hours=47))
    assert mail.outbox == []
    tasks.check_failing_subscriptions(now=started + dt.timedelta(hours=48, minutes=1))
    assert len(mail.outbox) == 1 and "will be disabled" in mail.outbox[0].subject
    tasks.check_failing_subscriptions(now=started + dt.timedelta(hours=60))
    assert len(mail.outbox) == 1  # warned once
    assert subscription(hook).is_active

    tasks.check_failing_subscriptions(now=started + dt.timedelta(hours=72, minutes=1))
    body = api.get(f"{WEBHOOKS}/{hook['id']}").json()
    assert (body["isActive"], body["disabledReason"]) == (False, "failing")
    assert len(mail.outbox) == 2 and "disabled" in mail.outbox[1].subject
    assert mail.outbox[1].to == ["boss@example.com"]

    # re-enabling starts over
    assert api.patch(f"{WEBHOOKS}/{hook['id']}", {"isActive": True}, format="json").json()["disabledReason"] is None
    assert subscription(hook).failing_since is None


def test_a_success_ends_the_failing_run(api, receiver, django_capture_on_commit_callbacks):
    receiver.expect_oneshot_request("/hook").respond_with_data("down", status=500)
    receiver.expect_request("/hook").respond_with_data("ok")
    hook = subscribe(api, receiver.url_for("/hook"))
    create_contact(api, django_capture_on_commit_callbacks)
    assert subscription(hook).failing_since is not None
    tasks.sweep(now=only_delivery().sweep_after)
    assert subscription(hook).failing_since is None
    tasks.check_failing_subscriptions(now=timezone.now() + dt.timedelta(hours=80))
    assert subscription(hook).is_active


def test_redeliver_sends_the_same_event_id_as_a_new_delivery(api, receiver, django_capture_on_commit_callbacks):
    receiver.expect_request("/hook").respond_with_data("ok")
    hook = subscribe(api, receiver.url_for("/hook"))
    create_contact(api, django_capture_on_commit_callbacks)
    first = only_delivery()
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"{WEBHOOKS}/{hook['id']}/deliveries/{first.pk}/redeliver")
    assert response.status_code == 201
    again = response.json()
    assert again["id"] != first.pk and again["eventId"] == first.event_id
    one, two = received(receiver)
    assert one.headers["webhook-id"] == two.headers["webhook-id"] == first.event_id
    assert two.headers["X-Platform-Delivery-Id"] == str(again["id"])
    assert WebhookDelivery.objects.get(pk=again["id"]).status == "succeeded"
    assert api.post(f"{WEBHOOKS}/{hook['id']}/deliveries/999999/redeliver").status_code == 404


def test_a_redirect_is_not_followed(api, receiver, django_capture_on_commit_callbacks):
    receiver.expect_request("/hook").respond_with_response(
        Response("", status=302, headers={"Location": receiver.url_for("/elsewhere")})
    )
    receiver.expect_request("/elsewhere").respond_with_data("ok")
    subscribe(api, receiver.url_for("/hook"))
    create_contact(api, django_capture_on_commit_callbacks)
    row = only_delivery()
    assert (row.status, row.attempts, row.response_status) == ("failed", 1, 302)
    assert "Redirect not followed" in row.last_error
    assert received(receiver, "/elsewhere") == []


def test_a_private_address_is_refused_again_at_delivery(api, receiver, settings, django_capture_on_commit_callbacks):
    """The URL was allowed when subscribed (development switch on); at delivery the connected address is checked
    again, as after a DNS change."""
    receiver.expect_request("/hook").respond_with_data("ok")
    subscribe(api, receiver.url_for("/hook"))
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = False
    create_contact(api, django_capture_on_commit_callbacks)
    row = only_delivery()
    assert row.status == "failed" and row.response_status is None
    assert "Refused" in row.last_error
    assert received(receiver) == []


def test_payloads_follow_the_subscriptions_stored_scopes(organization, receiver, client_for):
    receiver.expect_request("/hook").respond_with_data("ok")
    data = {"id": 7, "contactEmail": "ana@example.com", "players": [{"id": 1, "email": "p@example.com"}]}
    event = make_event(organization, "booking.created", data)
    without = subscribe(client_for("webhooks:write bookings:read"), receiver.url_for("/hook"), ["booking.created"])
    with_contacts = subscribe(client_for("*"), receiver.url_for("/hook"), ["booking.created"])
    for hook in (without, with_contacts):
        delivery.process(make_delivery(subscription(hook), event).pk)
    blind, seeing = received(receiver)
    assert verify(without["secret"], blind)["data"] == {
        "id": 7,
        "contactEmail": None,
        "players": [{"id": 1, "email": None}],
    }
    assert verify(with_contacts["secret"], seeing)["data"] == data


# --- receivers that misbehave: one bounded attempt each, logged, never a crash ----------------------------------


def test_a_huge_answer_is_read_only_to_1_kib(api, receiver, django_capture_on_commit_callbacks):
    receiver.expect_request("/hook").respond_with_data("x" * (10 * 1024 * 1024))
    subscribe(api, receiver.url_for("/hook"))
    create_contact(api, django_capture_on_commit_callbacks)
    row = only_delivery()
    assert (row.status, row.response_status, len(row.response_body)) == ("succeeded", 200, 1024)


def test_invalid_utf8_is_stored_with_replacement_characters(api, receiver, django_capture_on_commit_callbacks):
    receiver.expect_request("/hook").respond_with_data(b"ok \xff\xfe\x00 done", status=500)
    hook = subscribe(api, receiver.url_for("/hook"))
    create_contact(api, django_capture_on_commit_callbacks)
    row = only_delivery()
    assert row.status == "pending" and row.response_status == 500
    assert row.response_body.startswith("ok \ufffd\ufffd")
    log = api.get(f"{WEBHOOKS}/{hook['id']}/deliveries").json()["data"]
    assert log[0]["responseBody"] == row.response_body


@pytest.fixture
def silent_server():
    """Accepts connections and never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held = []
    stop = threading.Event()

    def accept():
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.getsockname()[1]}/hook"
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    server.close()


def test_a_receiver_that_never_answers_costs_one_bounded_attempt(
    api, private_ok, silent_server, django_capture_on_commit_callbacks
):
    private_ok.WEBHOOK_TIMEOUT_SECONDS = 1
    subscribe(api, silent_server)
    started = time.monotonic()
    create_contact(api, django_capture_on_commit_callbacks)
    assert time.monotonic() - started < 5
    row = only_delivery()
    assert (row.status, row.attempts, row.response_status) == (DeliveryStatus.PENDING, 1, None)
    assert "Timed out" in row.last_error and 900 <= row.duration_ms < 3000


def test_a_closed_port_is_a_connection_error_and_retried(api, private_ok, django_capture_on_commit_callbacks):
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    subscribe(api, f"http://127.0.0.1:{port}/hook")
    create_contact(api, django_capture_on_commit_callbacks)
    row = only_delivery()
    assert row.status == "pending" and "Connection failed" in row.last_error


def test_a_disabled_subscription_gets_nothing_and_redeliver_is_refused(api, organization, receiver):
    hook = subscribe(api, receiver.url_for("/hook"))
    row = make_delivery(subscription(hook))
    api.patch(f"{WEBHOOKS}/{hook['id']}", {"isActive": False}, format="json")
    assert delivery.process(row.pk).state == "failed"
    assert received(receiver) == []
    response = api.post(f"{WEBHOOKS}/{hook['id']}/deliveries/{row.pk}/redeliver")
    assert response.status_code == 409 and response.json()["code"] == "CONFLICT"


def test_the_concurrency_limit_defers_instead_of_sending(organization, receiver, settings):
    settings.WEBHOOK_MAX_CONCURRENCY_PER_SUBSCRIPTION = 1
    receiver.expect_request("/hook").respond_with_data("ok")
    hook = make_delivery_subscription(organization, receiver)
    busy = make_delivery(hook, lease_until=timezone.now() + dt.timedelta(seconds=30))
    waiting = make_delivery(hook)
    assert delivery.process(waiting.pk).state == "deferred"
    assert received(receiver) == []
    busy.lease_until = None
    busy.save()
    assert delivery.process(waiting.pk).state == "sent"


def make_delivery_subscription(organization, receiver):
    return make_subscription(organization, url=receiver.url_for("/hook"))


def test_a_subscription_deleted_during_the_attempt_is_no_crash(organization, monkeypatch):
    hook = make_subscription(organization)
    row = make_delivery(hook)

    def send_while_deleted(delivery_, now):
        hook.delete()
        return client.Answer(200, body="ok")

    monkeypatch.setattr(delivery, "send", send_while_deleted)
    assert delivery.process(row.pk).state == "sent"
    assert not WebhookDelivery.objects.exists()


def test_a_batch_of_events_from_one_write_is_delivered_one_request_each(
    api, receiver, club, django_capture_on_commit_callbacks
):
    """A recurring class records one class.created per occurrence plus class.series_changed in one transaction:
    the relay queues them together (deliver_many) and each arrives signed, with its own id."""
    receiver.expect_request("/hook").respond_with_data("ok")
    hook = subscribe(api, receiver.url_for("/hook"), ["class.created", "class.series_changed"])
    start = (timezone.now() + dt.timedelta(days=3)).replace(hour=18, minute=0, second=0, microsecond=0)
    body = {
        "clubId": club.id,
        "name": "Spin",
        "startTime": start.isoformat(),
        "endTime": (start + dt.timedelta(hours=1)).isoformat(),
        "recurrence": {"frequency": "daily", "ends": {"type": "after", "occurrences": 3}},
    }
    with django_capture_on_commit_callbacks(execute=True):
        assert api.post("/v1/platform/classes", body, format="json").status_code == 201
    events = [verify(hook["secret"], request) for request in received(receiver)]
    assert sorted(e["type"] for e in events) == ["class.created"] * 3 + ["class.series_changed"]
    assert len({e["id"] for e in events}) == 4
    assert set(WebhookDelivery.objects.values_list("status", flat=True)) == {"succeeded"}


def test_one_claim_leases_at_most_the_limit_and_defers_the_rest(organization, settings, other_organization):
    settings.WEBHOOK_MAX_CONCURRENCY_PER_SUBSCRIPTION = 2
    hook = make_subscription(organization)
    off = make_subscription(other_organization, is_active=False)
    rows = [make_delivery(hook) for _ in range(3)]
    disabled = make_delivery(off)
    done = make_delivery(hook, status="succeeded")
    now = timezone.now()
    claimed, outcomes = delivery.claim_many([r.pk for r in rows] + [disabled.pk, done.pk], now)
    assert [d.pk for d in claimed] == [rows[0].pk, rows[1].pk]
    assert {pk: o.state for pk, o in outcomes.items()} == {
        rows[2].pk: "deferred",
        disabled.pk: "failed",
        done.pk: "skipped",
    }
    assert WebhookDelivery.objects.filter(lease_until__gt=now).count() == 2
    assert WebhookDelivery.objects.get(pk=disabled.pk).status == "failed"
