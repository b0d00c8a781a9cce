"""The membership lifecycle worker: renewals (advance window, catch-up, idempotent, concurrent runs, a real Celery
worker), expiry on the membership's clock, scheduled resumes and end-of-period cancellations."""

import datetime as dt
from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.domain_events.models import DomainEvent
from apps.invoices.models import Invoice
from apps.memberships import services
from apps.memberships.models import Membership, MembershipPeriod
from apps.memberships.tasks import run_membership_lifecycle
from apps.transactions.models import Transaction
from config import celery_app
from tests.celery_worker import real_worker, wait_until
from tests.concurrency import race

URL = "/v1/platform/memberships"


def utc(*args):
    return dt.datetime(*args, tzinfo=dt.UTC)


def create_plan(api, **fields):
    response = api.post("/v1/platform/plans", {"name": "Monthly", "price": 40, **fields}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def sold(api, contact, plan, **fields):
    response = api.post(URL, {"contactId": contact.id, "planId": plan["id"], **fields}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def charges_of(membership_id):
    return list(Transaction.objects.filter(membership_id=membership_id).order_by("id"))


def test_renewal_bills_the_next_period_inside_the_advance_window_once(api, organization, contact):
    plan = create_plan(api, autoRenews=True, renewalDaysInAdvance=3, maxUses=8, signupFee=10)
    body = sold(api, contact, plan, startDate="2026-01-01", paymentStatus="paid")
    Membership.objects.filter(pk=body["id"]).update(uses_remaining=2)
    DomainEvent.objects.all().delete()

    assert services.run_lifecycle(now=utc(2026, 1, 28, 12)) == {}  # 1 February - 3 days is 29 January
    assert len(charges_of(body["id"])) == 2

    done = services.run_lifecycle(now=utc(2026, 1, 29, 9))
    assert done == {"membership.updated": 1, "transaction.created": 1}
    renewed = api.get(f"{URL}/{body['id']}").json()
    assert (renewed["endDate"], renewed["nextBillingDate"], renewed["usesRemaining"], renewed["paymentStatus"]) == (
        "2026-02-28",
        "2026-03-01",
        8,
        "unpaid",
    )
    first, fee, second = charges_of(body["id"])
    assert (second.amount, second.payment_status, second.type, second.source_type) == (
        Decimal("40.000"),
        "unpaid",
        "charge",
        "membership",
    )
    assert "2026-02-01 to 2026-02-28" in second.description
    assert second.revenue_account.is_default
    assert (first.payment_status, fee.payment_status) == ("paid", "paid")
    period = MembershipPeriod.objects.get(membership_id=body["id"], start_date=dt.date(2026, 2, 1))
    assert (period.end_date, period.charge_id, period.signup_fee_id) == (dt.date(2026, 2, 28), second.id, None)
    invoice = Invoice.objects.get(lines__transaction=second)  # the renewal's own invoice, issued that day
    assert (invoice.status, invoice.total, invoice.issue_date) == ("open", Decimal("40"), dt.date(2026, 1, 29))
    assert invoice.lines.count() == 1 and Invoice.objects.count() == 2
    assert Transaction.objects.get(pk=second.pk).invoice_id == invoice.id
    (updated,) = DomainEvent.objects.filter(type="membership.updated")
    assert sorted(updated.changed_fields) == ["endDate", "nextBillingDate", "paymentStatus", "usesRemaining"]
    assert updated.data == renewed
    transaction_created = DomainEvent.objects.get(type="transaction.created")
    assert (transaction_created.data["id"], transaction_created.data["invoiceId"]) == (second.id, invoice.id)

    assert services.run_lifecycle(now=utc(2026, 1, 29, 9)) == {}  # twice: nothing more
    assert services.run_lifecycle(now=utc(2026, 2, 20)) == {}
    assert len(charges_of(body["id"])) == 3 and Invoice.objects.count() == 2
    assert sorted(DomainEvent.objects.values_list("type", flat=True)) == [
        "invoice.created",
        "membership.updated",
        "transaction.created",
    ]

    response = api.patch(f"{URL}/{body['id']}", {"paymentStatus": "paid"}, format="json")
    assert response.json()["paymentStatus"] == "paid"
    assert [c.payment_status for c in charges_of(body["id"])] == ["paid", "paid", "paid"]
    invoice.refresh_from_db()
    assert invoice.status == "paid"


def test_a_backdated_sale_catches_up_every_period_due(api, contact):
    body = sold(api, contact, create_plan(api, autoRenews=True), startDate="2025-11-15")
    assert services.run_lifecycle(now=utc(2026, 1, 20, 12)) == {"membership.updated": 1, "transaction.created": 2}
    renewed = Membership.objects.get(pk=body["id"])
    assert (renewed.end_date, renewed.next_billing_date) == (dt.date(2026, 2, 14), dt.date(2026, 2, 15))
    starts = list(MembershipPeriod.objects.filter(membership=renewed).values_list("start_date", flat=True))
    assert starts == [dt.date(2025, 11, 15), dt.date(2025, 12, 15), dt.date(2026, 1, 15)]


def test_paused_memberships_renew_too_and_a_plan_that_stopped_renewing_lets_them_expire(api, contact):
    plan = create_plan(api, autoRenews=True)
    paused = sold(api, contact, plan, startDate="2026-01-01")
    assert api.post(f"{URL}/{paused['id']}/pause").status_code == 200
    stopping = sold(api, contact, plan, startDate="2026-01-01")
    assert services.run_lifecycle(now=utc(2026, 2, 1, 12))["transaction.created"] == 2
    assert api.patch(f"/v1/platform/plans/{plan['id']}", {"autoRenews": False}, format="json").status_code == 200
    done = services.run_lifecycle(now=utc(2026, 3, 1, 12))  # both end on 28 February; the plan renews no more
    assert done == {"membership.updated": 2, "membership.expired": 2}
    for membership in (paused, stopping):
        body = api.get(f"{URL}/{membership['id']}").json()
        assert (body["status"], body["endDate"], body["nextBillingDate"]) == ("expired", "2026-02-28", None)
    assert Transaction.objects.count() == 4


def test_expiry_on_the_memberships_clock(api, contact, club):
    plan = create_plan(api)  # monthly, not renewing
    body = sold(api, contact, plan, startDate="2026-01-01")
    club.timezone = "America/New_York"
    club.save(update_fields=["timezone"])
    in_club = sold(api, contact, create_plan(api, clubId=club.id), startDate="2026-01-01")
    one_time = sold(api, contact, create_plan(api, billingFrequency="one_time"), startDate="2020-01-01")
    DomainEvent.objects.all().delete()

    assert services.run_lifecycle(now=utc(2026, 1, 31, 22, 30)) == {}  # 23:30 on 31 January in Madrid
    assert services.run_lifecycle(now=utc(2026, 1, 31, 23, 30)) == {"membership.expired": 1}  # 00:30 in Madrid
    assert api.get(f"{URL}/{body['id']}").json()["status"] == "expired"
    assert api.get(f"{URL}/{in_club['id']}").json()["status"] == "active"  # 18:30 on 31 January in New York
    assert services.run_lifecycle(now=utc(2026, 2, 1, 5, 30)) == {"membership.expired": 1}
    assert api.get(f"{URL}/{one_time['id']}").json()["status"] == "active"  # no end date: never expires
    expired = DomainEvent.objects.filter(type="membership.expired").order_by("created_at")
    assert [e.data["id"] for e in expired] == [body["id"], in_club["id"]]
    assert expired[0].data["status"] == "expired"
    assert services.run_lifecycle(now=utc(2026, 3, 1)) == {}


def test_a_paused_membership_resumes_on_its_resume_date(api, contact):
    body = sold(api, contact, create_plan(api, billingFrequency="one_time", validityPeriod=365))
    today = timezone.localdate()
    resume_on = today + dt.timedelta(days=5)
    assert (
        api.post(f"{URL}/{body['id']}/pause", {"resumeDate": resume_on.isoformat()}, format="json").status_code == 200
    )
    day_before = timezone.now() + dt.timedelta(days=4)
    assert services.run_lifecycle(now=day_before) == {}
    assert services.run_lifecycle(now=timezone.now() + dt.timedelta(days=5, hours=1)) == {"membership.resumed": 1}
    resumed = api.get(f"{URL}/{body['id']}").json()
    assert (resumed["status"], resumed["resumeDate"], resumed["pausedAt"]) == ("active", None, None)
    assert DomainEvent.objects.get(type="membership.resumed").data["status"] == "active"


def test_an_end_of_period_cancellation_stops_renewal_and_cancels_at_cancel_at(api, contact):
    body = sold(api, contact, create_plan(api, autoRenews=True, renewalDaysInAdvance=5), startDate="2026-01-01")
    response = api.post(f"{URL}/{body['id']}/cancel", {"effective": "end_of_period"}, format="json")
    assert response.json()["cancelAt"] == "2026-02-01"
    assert services.run_lifecycle(now=utc(2026, 1, 29, 12)) == {}  # inside the advance window: not renewed
    assert services.run_lifecycle(now=utc(2026, 1, 31, 12)) == {}
    assert services.run_lifecycle(now=utc(2026, 2, 1, 12)) == {"membership.cancelled": 1}
    cancelled = api.get(f"{URL}/{body['id']}").json()
    assert (cancelled["status"], cancelled["cancelAt"], cancelled["endDate"]) == ("cancelled", None, "2026-01-31")
    assert cancelled["cancelledAt"] is not None
    assert len(charges_of(body["id"])) == 1


def test_the_database_refuses_a_second_bill_of_the_same_period(api, organization, contact):
    body = sold(api, contact, create_plan(api))
    period = MembershipPeriod.objects.get(membership_id=body["id"])
    with pytest.raises(IntegrityError), transaction.atomic():
        MembershipPeriod.objects.create(
            organization=organization, membership_id=body["id"], start_date=period.start_date
        )


def _due_tomorrow(api, contact, n):
    """`n` auto-renewing memberships whose next period starts tomorrow (inside a 3-day advance window)."""
    plan = create_plan(api, autoRenews=True, renewalDaysInAdvance=3)
    ids = [sold(api, contact, plan)["id"] for _ in range(n)]
    today = timezone.localdate()
    Membership.objects.filter(pk__in=ids).update(end_date=today, next_billing_date=today + dt.timedelta(days=1))
    return ids


def _assert_renewed_once(ids):
    for membership_id in ids:
        starts = list(MembershipPeriod.objects.filter(membership_id=membership_id).values_list("start_date", flat=True))
        assert len(starts) == len(set(starts)) == 2
        assert len(charges_of(membership_id)) == 2
        assert Invoice.objects.filter(lines__transaction__membership_id=membership_id).distinct().count() == 2
    assert DomainEvent.objects.filter(type="membership.updated").count() == len(ids)
    assert DomainEvent.objects.filter(type="invoice.created").count() == 2 * len(ids)


def test_the_beat_task_renews_and_running_it_twice_creates_nothing_more(api, contact):
    ids = _due_tomorrow(api, contact, 2)
    assert run_membership_lifecycle.delay().get() == {"membership.updated": 2, "transaction.created": 2}
    assert run_membership_lifecycle.delay().get() == {}
    _assert_renewed_once(ids)


@pytest.mark.django_db(transaction=True)
def test_concurrent_runs_renew_each_membership_once(api, contact):
    ids = _due_tomorrow(api, contact, 6)
    results = race([services.run_lifecycle, services.run_lifecycle], catch=(Exception,))
    assert not [result for result in results if isinstance(result, Exception)]
    _assert_renewed_once(ids)


def _queue_drained(celery_app) -> bool:
    """Both runs are done: nothing waits in the queue and nothing is unacknowledged (tasks ack late)."""
    with celery_app.connection_for_write() as conn:
        client = conn.default_channel.client
        return client.llen("celery") == 0 and client.hlen("unacked") == 0


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_real_celery_worker_renews_once(api, contact, settings):
    ids = _due_tomorrow(api, contact, 2)
    with real_worker(settings, "memberships-test") as proc:
        run_membership_lifecycle.delay()
        run_membership_lifecycle.delay()  # a second run, queued behind the first: it finds nothing due
        wait_until(lambda: MembershipPeriod.objects.count() >= 4 and _queue_drained(celery_app), proc)
        assert _queue_drained(celery_app), "the worker did not finish both runs"
        _assert_renewed_once(ids)
