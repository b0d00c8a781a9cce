"""Catching up: the event feed (cursor pages in recorded order, data under the caller's scopes) and replay (the
same event ids again, in order, one replay at a time)."""

import datetime as dt
import threading

import pytest
from django.db import transaction
from django.utils import timezone

from apps.domain_events.models import DomainEvent
from apps.domain_events.services import emit
from apps.webhooks import tasks
from apps.webhooks.relay import relay_missed
from tests.concurrency import race
from tests.webhooks.conftest import WEBHOOKS, received, subscribe, verify
from tests.webhooks.factories import make_delivery, make_event, make_subscription

FEED = "/v1/platform/webhook-events"
CONTACTS = "/v1/platform/contacts"


def write_contacts(api, capture, n):
    ids = []
    for i in range(n):
        with capture(execute=True):
            response = api.post(CONTACTS, {"firstName": f"C{i}", "email": f"c{i}@example.com"}, format="json")
        assert response.status_code == 201
        ids.append(response.json()["id"])
    return ids


def recorded_ids():
    return list(DomainEvent.objects.order_by("sequence").values_list("id", flat=True))


def test_the_feed_pages_in_recorded_order_with_a_cursor(api, django_capture_on_commit_callbacks):
    write_contacts(api, django_capture_on_commit_callbacks, 5)
    ids = recorded_ids()
    assert len(ids) == 5 and all(DomainEvent.objects.filter(sequence__isnull=False))

    first = api.get(FEED, {"limit": 2}).json()
    assert [e["id"] for e in first["data"]] == ids[:2]
    assert (first["nextCursor"], first["hasMore"]) == (ids[1], True)
    second = api.get(FEED, {"limit": 2, "after": first["nextCursor"]}).json()
    assert [e["id"] for e in second["data"]] == ids[2:4]
    last = api.get(FEED, {"limit": 2, "after": second["nextCursor"]}).json()
    assert ([e["id"] for e in last["data"]], last["nextCursor"], last["hasMore"]) == ([ids[4]], ids[4], False)
    empty = api.get(FEED, {"after": last["nextCursor"]}).json()
    assert empty == {"data": [], "nextCursor": None, "hasMore": False}

    envelope = api.get(f"{FEED}/{ids[0]}").json()
    assert envelope == first["data"][0]
    assert set(envelope) == {"id", "type", "createdAt", "organizationId", "data"}
    assert envelope["type"] == "contact.created" and envelope["data"]["firstName"] == "C0"


def test_feed_limits_and_bad_parameters(api, organization):
    for _ in range(3):
        make_event(organization)
    assert len(api.get(FEED).json()["data"]) == 3
    assert api.get(FEED, {"limit": 100000}).status_code == 200  # clamped to 500
    assert api.get(FEED, {"limit": 10**30}).status_code == 200  # however large (was a 400, issue 20)
    for params, field in (
        ({"after": "evt_unknown"}, "after"),
        ({"limit": 0}, "limit"),
        ({"limit": "x"}, "limit"),
        ({"types": "contact.created,nope.nope"}, "types"),
    ):
        response = api.get(FEED, params)
        assert response.status_code == 400, params
        assert list(response.json()["details"]["fields"]) == [field]
    old = make_event(organization)
    DomainEvent.objects.filter(pk=old.pk).update(created_at=timezone.now() - dt.timedelta(days=31))
    assert api.get(FEED, {"after": old.pk}).status_code == 400
    assert api.get(f"{FEED}/{old.pk}").status_code == 404


def test_the_feed_filters_types_and_follows_the_callers_scopes(organization, other_organization, client_for):
    booking = make_event(organization, "booking.created", {"id": 1, "contactEmail": "a@example.com", "players": []})
    contact = make_event(organization, "contact.created", {"id": 2, "email": "a@example.com"})
    make_event(other_organization, "contact.created", {"id": 3})

    everything = client_for("*").get(FEED).json()["data"]
    assert [e["id"] for e in everything] == [booking.id, contact.id]
    assert everything[0]["data"]["contactEmail"] == "a@example.com"

    narrow = client_for("webhooks:read bookings:read")
    page = narrow.get(FEED).json()["data"]
    assert [e["id"] for e in page] == [booking.id]  # contact events need contacts:read
    assert page[0]["data"]["contactEmail"] is None  # and so does the e-mail in a booking
    assert narrow.get(f"{FEED}/{contact.id}").status_code == 404
    assert [e["id"] for e in client_for("*").get(FEED, {"types": "contact.created"}).json()["data"]] == [contact.id]


def test_unrelayed_events_are_relayed_by_the_sweep_and_then_listed(api, organization):
    """A process that died between the commit and the relay: the beat relays the event a little later."""
    event = make_event(organization, relayed=False)
    assert api.get(FEED).json()["data"] == []
    assert relay_missed(now=timezone.now() + dt.timedelta(seconds=30)) == 1
    assert [e["id"] for e in api.get(FEED).json()["data"]] == [event.id]


def test_replay_sends_past_events_again_in_order_with_their_ids(api, receiver, django_capture_on_commit_callbacks):
    receiver.expect_request("/hook").respond_with_data("ok")
    since = timezone.now() - dt.timedelta(minutes=5)
    write_contacts(api, django_capture_on_commit_callbacks, 4)  # before the subscription: never delivered
    hook = subscribe(api, receiver.url_for("/hook"), ["contact.created"])
    assert received(receiver) == []
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"{WEBHOOKS}/{hook['id']}/replay", {"since": since.isoformat()}, format="json")
    assert response.status_code == 202
    assert response.json() == {"queued": 4}
    sent = [verify(hook["secret"], request)["id"] for request in received(receiver)]
    assert sent == recorded_ids()
    # types narrow it; nothing matches
    response = api.post(
        f"{WEBHOOKS}/{hook['id']}/replay", {"since": since.isoformat(), "types": ["booking.created"]}, format="json"
    )
    assert response.json() == {"queued": 0}


def test_one_replay_at_a_time(api, organization, django_capture_on_commit_callbacks):
    make_event(organization)
    hook = subscribe(api, "https://93.184.215.14/hook")
    body = {"since": (timezone.now() - dt.timedelta(hours=1)).isoformat()}
    with django_capture_on_commit_callbacks(execute=False):  # the replay task has not run yet
        assert api.post(f"{WEBHOOKS}/{hook['id']}/replay", body, format="json").json() == {"queued": 1}
    second = api.post(f"{WEBHOOKS}/{hook['id']}/replay", body, format="json")
    assert second.status_code == 409 and second.json()["code"] == "CONFLICT"


@pytest.mark.parametrize(
    "body, field",
    [
        ({"since": "2020-01-01T00:00:00Z"}, "since"),
        ({"since": "2030-01-01T00:00:00Z", "until": "2029-01-01T00:00:00Z"}, "until"),
        ({"since": "yesterday"}, "since"),
        ({"since": "2026-01-01T00:00:00"}, "since"),
        ({}, "since"),
        ({"since": "2030-01-01T00:00:00Z", "types": ["nope"]}, "types"),
    ],
)
def test_replay_window_validated(api, body, field):
    hook = subscribe(api, "https://93.184.215.14/hook")
    if "2030" in body.get("since", "") and field == "until":
        body = {"since": timezone.now().isoformat(), "until": (timezone.now() - dt.timedelta(hours=1)).isoformat()}
    response = api.post(f"{WEBHOOKS}/{hook['id']}/replay", body, format="json")
    assert response.status_code == 400, response.content
    assert list(response.json()["details"]["fields"]) == [field]


def test_old_deliveries_and_events_are_trimmed_after_30_days(organization):
    hook = make_subscription(organization)
    old_event, new_event = make_event(organization), make_event(organization)
    make_delivery(hook, old_event)  # goes with its event
    old_delivery = make_delivery(hook, new_event)
    recent = make_delivery(hook, new_event)
    month_ago = timezone.now() - dt.timedelta(days=31)
    DomainEvent.objects.filter(pk=old_event.pk).update(created_at=month_ago)
    hook.deliveries.filter(pk=old_delivery.pk).update(created_at=month_ago)
    assert tasks.trim() == {"deliveries": 1, "events": 1}
    assert list(DomainEvent.objects.values_list("id", flat=True)) == [new_event.id]
    assert list(hook.deliveries.values_list("id", flat=True)) == [recent.id]


@pytest.mark.django_db(transaction=True)
def test_the_feed_follows_commit_order_not_write_order(organization):
    """An event written first but committed last is numbered last, so a poller whose cursor passed the other event
    still finds it after its cursor."""
    written, release = threading.Event(), threading.Event()
    ids = {}

    def slow_writer():
        with transaction.atomic():
            emit(organization, "contact.created", {"id": 1})
            ids["first_written"] = DomainEvent.objects.filter(data__id=1).values_list("id", flat=True).get()
            written.set()
            release.wait(10)  # committed only after the other write

    def fast_writer():
        written.wait(10)
        with transaction.atomic():
            emit(organization, "contact.created", {"id": 2})
        ids["first_committed"] = DomainEvent.objects.filter(data__id=2).values_list("id", flat=True).get()
        release.set()

    race([slow_writer, fast_writer])
    first_written = DomainEvent.objects.get(pk=ids["first_written"])
    first_committed = DomainEvent.objects.get(pk=ids["first_committed"])
    assert first_written.created_at < first_committed.created_at
    assert first_committed.sequence < first_written.sequence
