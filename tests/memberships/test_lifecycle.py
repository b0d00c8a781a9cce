"""The membership lifecycle worker: renewals (advance window, catch-up, idempotent, concurrent runs, a real Celery
worker), expiry on the membership's clock, scheduled resumes and end-of-period cancellations."""

import datetime as dt
from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.billing.models import Plan
from apps.contacts.models import Contact
from apps.domain_events.models import DomainEvent
from apps.invoices.models import Invoice
from apps.kernel import clock
from apps.memberships import services
from apps.memberships.models import Membership, MembershipPeriod
from apps.memberships.tasks import run_membership_lifecycle
from apps.transactions.models import Transaction
from config import celery_app
from tests.celery_worker import real_worker, wait_until
from tests.concurrency import race

from .conftest import ticking

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
    # Billed three days early: the uses of the coming period are granted on its first day, not now.
    assert (renewed["endDate"], renewed["nextBillingDate"], renewed["usesRemaining"], renewed["paymentStatus"]) == (
        "2026-02-28",
        "2026-03-01",
        2,
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
    assert sorted(updated.changed_fields) == ["endDate", "nextBillingDate", "paymentStatus"]
    assert updated.data == renewed
    transaction_created = DomainEvent.objects.get(type="transaction.created")
    assert (transaction_created.data["id"], transaction_created.data["invoiceId"]) == (second.id, invoice.id)

    assert services.run_lifecycle(now=utc(2026, 1, 29, 9)) == {}  # twice: nothing more
    assert services.run_lifecycle(now=utc(2026, 1, 31, 22, 30)) == {}  # 23:30 on 31 January in Madrid
    assert services.run_lifecycle(now=utc(2026, 1, 31, 23, 30)) == {"membership.updated": 1}  # 1 February
    assert api.get(f"{URL}/{body['id']}").json()["usesRemaining"] == 8
    granted = DomainEvent.objects.filter(type="membership.updated").order_by("created_at", "id").last()
    assert (granted.changed_fields, granted.data["usesRemaining"]) == (["usesRemaining"], 8)
    assert services.run_lifecycle(now=utc(2026, 2, 20)) == {}
    assert len(charges_of(body["id"])) == 3 and Invoice.objects.count() == 2
    assert sorted(DomainEvent.objects.values_list("type", flat=True)) == [
        "invoice.created",
        "membership.updated",
        "membership.updated",
        "transaction.created",
    ]

    response = api.patch(f"{URL}/{body['id']}", {"paymentStatus": "paid"}, format="json")
    assert response.json()["paymentStatus"] == "paid"
    assert [c.payment_status for c in charges_of(body["id"])] == ["paid", "paid", "paid"]
    invoice.refresh_from_db()
    assert invoice.status == "paid"


def test_a_backdated_sale_bills_the_period_that_contains_today_only(api, contact):
    """Today is 15 January 2026 (the frozen clock): a sale dated ten months back bills December's period (20
    December - 19 January) and the sign-up fee, not ten periods; the beat task then has nothing to catch up."""
    plan = create_plan(api, autoRenews=True, signupFee=10)
    body = sold(api, contact, plan, startDate="2025-03-20")
    assert (body["startDate"], body["endDate"], body["nextBillingDate"]) == ("2025-03-20", "2026-01-19", "2026-01-20")
    periods = MembershipPeriod.objects.filter(membership_id=body["id"])
    assert [(p.start_date, p.end_date) for p in periods] == [(dt.date(2025, 12, 20), dt.date(2026, 1, 19))]
    charge, fee = charges_of(body["id"])
    assert "2025-12-20 to 2026-01-19" in charge.description and (fee.amount, charge.amount) == (10, 40)
    assert Invoice.objects.count() == 1

    assert run_membership_lifecycle.delay().get() == {}
    assert services.run_lifecycle(now=utc(2026, 1, 20, 12)) == {"membership.updated": 1, "transaction.created": 1}
    assert len(charges_of(body["id"])) == 3
    # A plan that does not renew has one period: a back-dated sale of it is that period.
    one = sold(api, contact, create_plan(api, name="Once"), startDate="2025-06-01")
    assert (one["endDate"], one["nextBillingDate"]) == ("2025-06-30", None)


def _renewing(organization, n, plan_name="Monthly"):
    """`n` auto-renewing memberships of `organization` (sold through the service) whose next period starts today:
    due at the next run."""
    plan = Plan.objects.create(organization=organization, name=plan_name, price=40, auto_renews=True)
    contact = Contact.objects.create(organization=organization, first_name="Member")
    ids = [services.sell_membership(organization, {"contact": contact, "plan": plan}).pk for _ in range(n)]
    today = clock.today(organization)
    # As if sold a month ago: the sale's period ended yesterday.
    MembershipPeriod.objects.filter(membership_id__in=ids).update(start_date=today - dt.timedelta(days=31))
    Membership.objects.filter(pk__in=ids).update(end_date=today - dt.timedelta(days=1), next_billing_date=today)
    return ids


def _renewed(ids):
    return [i for i in ids if MembershipPeriod.objects.filter(membership_id=i).count() == 2]


def test_a_run_spends_a_budget_shared_by_the_organizations_in_turns(organization, other_organization, settings):
    """One unit per membership visited and per period billed: a budget of 6 renews three memberships a run, and
    the organization with two due memberships is not made to wait behind the one with six."""
    settings.MEMBERSHIP_LIFECYCLE_BUDGET = 6
    large = _renewing(organization, 6)
    small = _renewing(other_organization, 2)

    first = run_membership_lifecycle.delay().get()
    assert first == {"membership.updated": 3, "transaction.created": 3, "deferred": 5}
    assert (len(_renewed(large)), len(_renewed(small))) == (2, 1)  # large, small, large
    assert run_membership_lifecycle.delay().get()["deferred"] == 2
    assert (len(_renewed(large)), len(_renewed(small))) == (4, 2)
    assert run_membership_lifecycle.delay().get() == {"membership.updated": 2, "transaction.created": 2}
    assert run_membership_lifecycle.delay().get() == {}
    assert (len(_renewed(large)), len(_renewed(small))) == (6, 2)
    assert Transaction.objects.count() == 16  # 8 sales and 8 renewals, each once


def test_a_worker_that_was_down_catches_up_at_most_twelve_periods_a_run(organization, settings):
    (membership_id,) = _renewing(organization, 1)
    today = clock.today(organization)
    # The worker missed 20 monthly renewals.
    Membership.objects.filter(pk=membership_id).update(
        start_date=dt.date(2024, 5, 1), end_date=dt.date(2024, 5, 31), next_billing_date=dt.date(2024, 6, 1)
    )
    assert today == dt.date(2026, 1, 15)
    assert run_membership_lifecycle.delay().get() == {"membership.updated": 1, "transaction.created": 12}
    assert Membership.objects.get(pk=membership_id).next_billing_date == dt.date(2025, 6, 1)
    assert run_membership_lifecycle.delay().get() == {"membership.updated": 1, "transaction.created": 8}
    assert Membership.objects.get(pk=membership_id).next_billing_date == dt.date(2026, 2, 1)
    assert run_membership_lifecycle.delay().get() == {}
    settings.MEMBERSHIP_LIFECYCLE_BUDGET = 4  # and never more than the run's budget
    Membership.objects.filter(pk=membership_id).update(next_billing_date=dt.date(2023, 6, 1))
    assert run_membership_lifecycle.delay().get() == {"membership.updated": 1, "transaction.created": 4}


def test_a_paused_membership_is_not_renewed_and_resumes_into_its_current_period(api, contact, monkeypatch):
    plan = create_plan(api, autoRenews=True)
    body = sold(api, contact, plan, startDate="2026-01-01")  # 1-31 January, billed
    url = f"{URL}/{body['id']}"
    assert api.post(f"{url}/pause").status_code == 200
    for moment in (utc(2026, 2, 1, 12), utc(2026, 2, 20, 12), utc(2026, 3, 9, 12)):
        assert services.run_lifecycle(now=moment) == {}
    paused = api.get(url).json()
    assert (paused["status"], paused["endDate"], paused["nextBillingDate"]) == ("paused", "2026-01-31", "2026-02-01")
    assert len(charges_of(body["id"])) == 1

    monkeypatch.setattr(timezone, "now", ticking(utc(2026, 3, 10, 12)))
    resumed = api.post(f"{url}/resume")
    assert resumed.status_code == 200
    # February passed while paused and is never billed; March, the period of the resume day, is billed at once.
    body = api.get(url).json()
    assert (body["status"], body["endDate"], body["nextBillingDate"]) == ("active", "2026-03-31", "2026-04-01")
    starts = list(MembershipPeriod.objects.filter(membership_id=body["id"]).values_list("start_date", flat=True))
    assert starts == [dt.date(2026, 1, 1), dt.date(2026, 3, 1)]
    assert [e.type for e in DomainEvent.objects.filter(type__startswith="membership.").order_by("created_at", "id")][
        -2:
    ] == ["membership.resumed", "membership.updated"]
    assert services.run_lifecycle(now=utc(2026, 3, 20, 12)) == {}


def test_the_worker_resumes_on_the_resume_date_into_the_current_period(api, contact):
    plan = create_plan(api, autoRenews=True)
    body = sold(api, contact, plan, startDate="2026-01-01")
    url = f"{URL}/{body['id']}"
    assert api.post(f"{url}/pause", {"resumeDate": "2026-04-10"}, format="json").status_code == 200
    assert run_membership_lifecycle.delay().get() == {}
    assert services.run_lifecycle(now=utc(2026, 4, 9, 12)) == {}
    done = services.run_lifecycle(now=utc(2026, 4, 10, 12))
    assert done == {"membership.resumed": 1, "membership.updated": 1, "transaction.created": 1}
    body = api.get(url).json()
    assert (body["status"], body["endDate"], body["nextBillingDate"]) == ("active", "2026-04-30", "2026-05-01")
    assert len(charges_of(body["id"])) == 2


def test_a_plan_that_stopped_renewing_lets_paused_and_active_memberships_expire(api, contact):
    plan = create_plan(api)  # monthly, not renewing
    paused = sold(api, contact, plan, startDate="2026-01-01")
    assert api.post(f"{URL}/{paused['id']}/pause").status_code == 200
    active = sold(api, contact, plan, startDate="2026-01-01")
    done = services.run_lifecycle(now=utc(2026, 2, 1, 12))
    assert done == {"membership.expired": 2}
    for membership in (paused, active):
        body = api.get(f"{URL}/{membership['id']}").json()
        assert (body["status"], body["endDate"], body["nextBillingDate"]) == ("expired", "2026-01-31", None)


def _billed_ahead(api, contact, **plan_fields):
    """A membership of 1-31 January whose February period the beat task billed on 15 January (20 days ahead)."""
    body = sold(api, contact, create_plan(api, autoRenews=True, renewalDaysInAdvance=20, **plan_fields),
                startDate="2026-01-01")  # fmt: skip
    assert run_membership_lifecycle.delay().get() == {"membership.updated": 1, "transaction.created": 1}
    january, february = charges_of(body["id"])
    assert api.get(f"{URL}/{body['id']}").json()["endDate"] == "2026-02-28"
    return body["id"], january, february


def _invoice_of(api, charge):
    return api.get(f"/v1/platform/invoices/{Transaction.objects.get(pk=charge.pk).invoice_id}").json()


def test_cancelling_withdraws_a_period_billed_ahead(api, contact):
    membership_id, january, february = _billed_ahead(api, contact)
    DomainEvent.objects.all().delete()

    response = api.post(f"{URL}/{membership_id}/cancel", {"reason": "Moving"}, format="json")

    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["endDate"], body["nextBillingDate"]) == ("cancelled", "2026-01-31", None)
    assert Transaction.objects.get(pk=february.pk).payment_status == "void"
    assert Transaction.objects.get(pk=january.pk).payment_status == "unpaid"  # the period under way stays billed
    assert _invoice_of(api, february)["status"] == "void"
    assert _invoice_of(api, january)["status"] == "open"
    assert list(MembershipPeriod.objects.filter(membership_id=membership_id).values_list("start_date", flat=True)) == [
        dt.date(2026, 1, 1)
    ]
    types = list(DomainEvent.objects.order_by("created_at", "id").values_list("type", flat=True))
    assert types == ["membership.cancelled", "transaction.updated", "invoice.updated"]
    assert run_membership_lifecycle.delay().get() == {}


def test_an_end_of_period_cancellation_ends_with_the_current_period(api, contact):
    membership_id, january, february = _billed_ahead(api, contact)
    response = api.post(f"{URL}/{membership_id}/cancel", {"effective": "end_of_period"}, format="json")
    body = response.json()
    assert (body["status"], body["endDate"], body["cancelAt"], body["nextBillingDate"]) == (
        "active",
        "2026-01-31",
        "2026-02-01",
        None,
    )
    assert Transaction.objects.get(pk=february.pk).payment_status == "void"
    assert services.run_lifecycle(now=utc(2026, 2, 1, 12)) == {"membership.cancelled": 1}
    assert len(charges_of(membership_id)) == 2


def test_a_period_billed_ahead_and_paid_is_kept(api, contact):
    membership_id, january, february = _billed_ahead(api, contact)
    assert api.patch(f"{URL}/{membership_id}", {"paymentStatus": "paid"}, format="json").status_code == 200
    body = api.post(f"{URL}/{membership_id}/cancel", {"effective": "end_of_period"}, format="json").json()
    assert (body["endDate"], body["cancelAt"], body["paymentStatus"]) == ("2026-02-28", "2026-03-01", "paid")
    assert Transaction.objects.get(pk=february.pk).payment_status == "paid"


def test_expiry_on_the_memberships_clock(api, contact, club):
    plan = create_plan(api)  # monthly, not renewing
    body = sold(api, contact, plan, startDate="2026-01-01")
    club.timezone = "America/New_York"
    club.save(update_fields=["timezone"])
    in_club = sold(api, contact, create_plan(api, clubId=club.id), startDate="2026-01-01")
    one_time = sold(api, contact, create_plan(api, billingFrequency="one_time"), startDate="2025-02-01")
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
    today = clock.today(contact.organization)  # the membership's clock, whatever the hour in UTC
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
