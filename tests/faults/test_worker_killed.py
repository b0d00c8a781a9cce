"""A Celery worker killed (SIGKILL) in the middle of a task loses nothing and does nothing twice.

The task is held mid-way by a row lock this test takes from its own connection (the worker blocks inside its
transaction), the worker is killed there, the lock is released, and the job is finished by the worker that comes
next: a pool process's task is requeued at once (`task_reject_on_worker_lost`), a whole worker's unacknowledged
message after the broker's visibility timeout (3 s here, `CELERY_VISIBILITY_TIMEOUT_SECONDS`). Webhooks have their
own proof (tests/webhooks/test_worker.py: the lease expires and the sweep delivers the same event)."""

import os
import signal
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest

from apps.invoices.models import InvoiceSequence
from apps.memberships.models import MembershipPeriod
from apps.memberships.tasks import run_membership_lifecycle
from apps.notifications.models import Notification, NotificationDelivery
from apps.notifications.tasks import deliver_notification
from tests.celery_worker import real_worker, wait_until
from tests.memberships.test_lifecycle import _assert_renewed_once, _due_tomorrow
from tests.server_env import served_database_url

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

QUICK_REDELIVERY = {"CELERY_VISIBILITY_TIMEOUT_SECONDS": "3"}


@contextmanager
def held(sql: str, params):
    """Run `sql` in a transaction of a connection of our own and keep it open (its locks held) until the block
    ends, then roll it back."""
    with psycopg.connect(served_database_url(), autocommit=False) as conn:
        conn.execute(sql, params)
        try:
            yield
        finally:
            conn.rollback()


def a_backend_waits_on_a_lock() -> bool:
    with psycopg.connect(served_database_url(), autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        ).fetchone()
        return row[0] > 0


def pool_processes(worker_pid: int) -> list[int]:
    return [int(pid) for pid in Path(f"/proc/{worker_pid}/task/{worker_pid}/children").read_text().split()]


def test_a_renewal_run_killed_with_its_worker_is_finished_once_by_the_next_worker(api, contact, settings):
    ids = _due_tomorrow(api, contact, 2)
    periods = MembershipPeriod.objects.count()
    sequence = InvoiceSequence._meta.db_table
    # The renewal issues an invoice under the organization's sequence row: holding it stops the run mid-transaction.
    with held(f"SELECT 1 FROM {sequence} WHERE organization_id = %s FOR UPDATE", [contact.organization_id]):
        with real_worker(settings, "renewal-doomed", env=QUICK_REDELIVERY) as proc:
            run_membership_lifecycle.delay()
            wait_until(a_backend_waits_on_a_lock, proc, seconds=60)
            proc.kill()  # SIGKILL: no acknowledgement, no rollback from the worker's side
            proc.wait()
    # the killed run's transaction never committed: nothing was billed
    assert MembershipPeriod.objects.count() == periods
    # A worker returns unacknowledged messages older than the visibility timeout when it starts consuming: on an
    # idle machine the next worker can start before the killed worker's message is that old.
    time.sleep(float(QUICK_REDELIVERY["CELERY_VISIBILITY_TIMEOUT_SECONDS"]) + 1)
    with real_worker(settings, "renewal-heir", env=QUICK_REDELIVERY) as proc:
        # no new task is queued: the killed worker's message comes back after the visibility timeout
        wait_until(lambda: MembershipPeriod.objects.count() >= periods + 2, proc, seconds=60)
        time.sleep(1)  # a second run, had there been one, would have billed by now
    _assert_renewed_once(ids)


def test_a_notification_whose_pool_process_is_killed_is_delivered_once_to_everyone(organization, contact, settings):
    other = contact.__class__.objects.create(organization=organization, first_name="Bo", email="bo@example.com")
    payload = {
        "id": uuid.uuid4().hex,
        "organization_id": organization.pk,
        "contact_ids": [contact.pk, other.pk],
        "kind": "booking.confirmed",
        "subject": "See you on court",
        "body": "Your booking is confirmed.",
        "channels": ["in_app"],
    }
    second_key = f"{payload['id']}:{max(contact.pk, other.pk)}:in_app"  # contacts are served in id order
    table = NotificationDelivery._meta.db_table
    with real_worker(settings, "notify", env=QUICK_REDELIVERY, processes=1) as proc:
        # An uncommitted delivery record of the second contact: the task's own insert of it waits behind ours.
        with held(f"INSERT INTO {table} (key, created_at) VALUES (%s, now())", [second_key]):
            deliver_notification.delay(payload)
            wait_until(a_backend_waits_on_a_lock, proc, seconds=60)
            assert Notification.objects.count() == 1  # the first contact's, committed on its own
            (pool_process,) = pool_processes(proc.pid)
            os.kill(pool_process, signal.SIGKILL)
        wait_until(lambda: Notification.objects.count() >= 2, proc, seconds=60)
        time.sleep(1)
        assert pool_processes(proc.pid) != [pool_process]  # a new pool process finished the job
    assert sorted(Notification.objects.values_list("contact_id", flat=True)) == sorted([contact.pk, other.pk])
    assert NotificationDelivery.objects.filter(key__startswith=payload["id"]).count() == 2
