"""The documented receiver (scripts/webhook_receiver.py) accepts real deliveries and refuses forged ones."""

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from apps.webhooks import client, delivery
from apps.webhooks.models import WebhookDelivery
from tests.webhooks.conftest import subscribe, subscription

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "webhook_receiver.py"


@pytest.fixture
def example_receiver(api, private_ok):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/"
    hook = subscribe(api, url, ["contact.created"])
    proc = subprocess.Popen(
        [sys.executable, str(SCRIPT), str(port)],
        env={"WEBHOOK_SECRET": hook["secret"], "PATH": ""},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.1)
    yield hook, url, proc
    proc.kill()
    proc.wait()


def test_the_example_receiver_verifies_and_deduplicates(api, example_receiver, django_capture_on_commit_callbacks):
    hook, url, proc = example_receiver
    with django_capture_on_commit_callbacks(execute=True):
        api.post("/v1/platform/contacts", {"firstName": "Eve", "email": "eve@example.com"}, format="json")
    row = WebhookDelivery.objects.get()
    assert (row.status, row.response_status) == ("succeeded", 204)
    # the same delivery again (a duplicate) is accepted without being processed twice
    assert (
        delivery.process(
            WebhookDelivery.objects.create(
                organization=row.organization, subscription=row.subscription, event=row.event, event_type=row.event_type
            ).pk
        ).state
        == "sent"
    )
    # a forged one (wrong secret) is refused
    forged = subscription(hook)
    forged.secret = "whsec_" + "A" * 44
    body, headers = delivery.request_parts(_with(row, forged), row.created_at)
    assert client.post(url, body, headers).status == 400
    proc.kill()
    printed = [json.loads(line) for line in proc.communicate()[0].decode().splitlines()]
    assert [(e["id"], e["type"], e["data"]["email"]) for e in printed] == [
        (row.event_id, "contact.created", "eve@example.com")
    ]


def _with(row, subscription_):
    row.subscription = subscription_
    return row
