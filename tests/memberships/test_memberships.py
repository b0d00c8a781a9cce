"""Memberships through the HTTP API: selling (periods, charges, revenue account at sale time, validation), the
list and its filters, price and paid state, pause/resume/cancel and their refusals, events, the contact archive
and the plan delete guard."""

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from apps.billing.models import Plan, RevenueAccount
from apps.contacts.models import Contact
from apps.domain_events.models import DomainEvent
from apps.invoices.models import Invoice
from apps.memberships.models import Membership, MembershipPeriod
from apps.transactions.models import Transaction

URL = "/v1/platform/memberships"
PLANS = "/v1/platform/plans"


def create_plan(api, **fields):
    response = api.post(PLANS, {"name": "Monthly", "price": 40, **fields}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def sell(api, contact, plan, **fields):
    return api.post(URL, {"contactId": contact.id, "planId": plan["id"], **fields}, format="json")


def sold(api, contact, plan, **fields):
    response = sell(api, contact, plan, **fields)
    assert response.status_code == 201, response.content
    return response.json()


def field_errors(response):
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "VALIDATION_ERROR"
    return response.json()["details"]["fields"]


def events(type_):
    return list(DomainEvent.objects.filter(type=type_).order_by("created_at", "id"))


def test_sale_presents_every_field_and_records_its_charges_and_events(api, organization, contact):
    plan = create_plan(api, signupFee=10, autoRenews=True, renewalDaysInAdvance=3)
    response = sell(api, contact, plan, startDate="2026-01-31", notes="Front desk")
    assert response.status_code == 201, response.content
    body = response.json()
    membership = Membership.objects.get(organization=organization)
    assert response["Location"].endswith(f"{URL}/{membership.id}")
    assert body == {
        "id": membership.id,
        "contactId": contact.id,
        "contactName": "Ana Lopez",
        "contactEmail": "ana@example.com",
        "planId": plan["id"],
        "plan": {"id": plan["id"], "name": "Monthly"},
        "clubId": None,
        "status": "active",
        "price": 40.0,
        "signupFee": 10.0,
        "billingFrequency": "monthly",
        "paymentStatus": "unpaid",
        "startDate": "2026-01-31",
        "endDate": "2026-02-27",  # 28 February starts the next period: the day of the month, clamped
        "nextBillingDate": "2026-02-28",
        "usesRemaining": None,
        "pausedAt": None,
        "resumeDate": None,
        "cancelAt": None,
        "cancelledAt": None,
        "cancellationReason": None,
        "source": "api",
        "notes": "Front desk",
        "createdAt": body["createdAt"],
        "updatedAt": body["updatedAt"],
    }
    assert api.get(f"{URL}/{membership.id}").json() == body

    default = RevenueAccount.objects.get(organization=organization, is_default=True)
    charge, fee = Transaction.objects.filter(membership=membership).order_by("id")
    assert (charge.type, charge.source_type, charge.amount, charge.payment_status) == (
        "charge",
        "membership",
        Decimal("40.000"),
        "unpaid",
    )
    assert charge.tax_amount == Decimal("6.940")  # 21 % inside 40.00: 40.00 - 33.06
    assert (fee.amount, fee.payment_status, fee.paid_amount) == (Decimal("10.000"), "unpaid", Decimal("0"))
    assert charge.revenue_account_id == fee.revenue_account_id == default.id
    assert charge.contact_id == contact.id and "2026-01-31 to 2026-02-27" in charge.description
    period = MembershipPeriod.objects.get(membership=membership)
    assert (period.start_date, period.end_date, period.charge_id, period.signup_fee_id) == (
        dt.date(2026, 1, 31),
        dt.date(2026, 2, 27),
        charge.id,
        fee.id,
    )
    listed = api.get("/v1/platform/transactions", {"membershipId": membership.id}).json()["data"]
    assert {row["id"] for row in listed} == {charge.id, fee.id}

    invoice = Invoice.objects.get(organization=organization)  # one invoice: the period's charge and the fee
    assert (invoice.status, invoice.total, invoice.amount_paid, invoice.contact_id) == (
        "open",
        Decimal("50"),
        0,
        contact.id,
    )
    assert [line.transaction_id for line in invoice.lines.order_by("position")] == [charge.id, fee.id]
    assert {row["invoiceId"] for row in listed} == {invoice.id}

    (created,) = events("membership.created")
    assert created.data == body  # stored whole; webhooks and the feed render it under their reader's scopes
    assert [e.data["id"] for e in events("transaction.created")] == [charge.id, fee.id]
    assert [e.data["id"] for e in events("invoice.created")] == [invoice.id]
    types = list(DomainEvent.objects.order_by("created_at", "id").values_list("type", flat=True))
    assert types[-4:] == ["membership.created", "invoice.created", "transaction.created", "transaction.created"]
    assert {e.data["invoiceId"] for e in events("transaction.created")} == {invoice.id}


def test_paid_sale_records_its_charges_paid_in_full(api, organization, contact):
    plan = create_plan(api, signupFee=5)
    body = sold(api, contact, plan, paymentStatus="paid", price=35.5)
    assert body["paymentStatus"] == "paid" and body["price"] == 35.5
    for row in Transaction.objects.filter(membership_id=body["id"]):
        assert row.payment_status == "paid" and row.paid_amount == row.amount and row.paid_at is not None
    assert sorted(Transaction.objects.values_list("amount", flat=True)) == [Decimal("5.000"), Decimal("35.500")]
    invoice = Invoice.objects.get()
    assert (invoice.status, invoice.total, invoice.amount_paid) == ("paid", Decimal("40.5"), Decimal("40.5"))


def test_a_free_membership_has_no_charge_and_a_zero_fee_none(api, organization, contact):
    plan = create_plan(api, signupFee=10)
    sold(api, contact, plan, signupFee=0)
    assert list(Transaction.objects.values_list("amount", flat=True)) == [Decimal("40.000")]
    sold(api, contact, plan, price=0, signupFee=0)
    assert Transaction.objects.count() == 1
    assert MembershipPeriod.objects.count() == 2
    assert Invoice.objects.count() == 1  # nothing to invoice for the free one


def test_amounts_round_half_up_at_the_currency_precision(api, organization, contact):
    organization.currency = "JPY"
    organization.save(update_fields=["currency"])
    plan = create_plan(api, price=1000)
    body = sold(api, contact, plan, price=1200.5, signupFee=0.49)
    assert body["price"] == 1201.0 and body["signupFee"] == 0.0
    assert list(Transaction.objects.values_list("amount", flat=True)) == [Decimal("1201")]


@pytest.mark.parametrize(
    ("plan_fields", "start", "end", "next_billing"),
    [
        ({"billingFrequency": "weekly", "autoRenews": True}, "2026-03-05", "2026-03-11", "2026-03-12"),
        ({"billingFrequency": "monthly"}, "2026-03-31", "2026-04-29", None),
        ({"billingFrequency": "quarterly", "autoRenews": True}, "2025-11-30", "2026-02-27", "2026-02-28"),
        ({"billingFrequency": "annually", "autoRenews": True}, "2024-02-29", "2025-02-27", "2025-02-28"),
        (
            {"billingFrequency": "custom", "customPeriod": 2, "customPeriodUnit": "weeks", "autoRenews": True},
            "2026-01-01",
            "2026-01-14",
            "2026-01-15",
        ),
        (
            {"billingFrequency": "custom", "customPeriod": 10, "customPeriodUnit": "days"},
            "2026-01-01",
            "2026-01-10",
            None,
        ),
        (
            {"billingFrequency": "custom", "customPeriod": 2, "customPeriodUnit": "months", "autoRenews": True},
            "2026-01-15",
            "2026-03-14",
            "2026-03-15",
        ),
        ({"billingFrequency": "one_time", "validityPeriod": 90, "autoRenews": True}, "2026-01-01", "2026-03-31", None),
        ({"billingFrequency": "one_time"}, "2026-01-01", None, None),
    ],
)
def test_end_and_next_billing_dates_follow_the_plan(api, contact, plan_fields, start, end, next_billing, monkeypatch):
    # Sold on its start day (a back-dated sale of a renewing plan bills its current period: test_lifecycle.py).
    monkeypatch.setattr(timezone, "now", lambda: dt.datetime.fromisoformat(f"{start}T12:00:00+00:00"))
    plan = create_plan(api, **plan_fields)
    body = sold(api, contact, plan, startDate=start)
    assert (body["endDate"], body["nextBillingDate"]) == (end, next_billing)
    assert body["billingFrequency"] == plan["billingFrequency"]


def test_uses_start_at_the_plans_max_uses(api, contact):
    plan = create_plan(api, billingFrequency="one_time", maxUses=10, validityPeriod=30)
    assert sold(api, contact, plan)["usesRemaining"] == 10


def test_start_date_defaults_to_today_on_the_clubs_clock_else_the_organizations(
    api, organization, contact, club, monkeypatch
):
    moment = dt.datetime(2026, 3, 1, 23, 30, tzinfo=dt.UTC)  # 2 March 00:30 in Madrid, 1 March in New York
    monkeypatch.setattr(timezone, "now", lambda: moment)
    assert sold(api, contact, create_plan(api))["startDate"] == "2026-03-02"  # the organization: Europe/Madrid
    club.timezone = "America/New_York"
    club.save(update_fields=["timezone"])
    body = sold(api, contact, create_plan(api, clubId=club.id))
    assert (body["startDate"], body["clubId"]) == ("2026-03-01", club.id)


def test_sale_resolves_the_default_revenue_account_at_sale_time(api, organization, contact):
    plan = create_plan(api)
    first = sold(api, contact, plan)
    other = api.post("/v1/platform/revenue-accounts", {"name": "Memberships", "isDefault": True}, format="json")
    assert other.status_code == 201
    second = sold(api, contact, plan)
    own = RevenueAccount.objects.create(organization=organization, name="Passes")
    Plan.objects.filter(pk=plan["id"]).update(revenue_account=own)
    third = sold(api, contact, plan)
    accounts = [Transaction.objects.get(membership_id=m["id"]).revenue_account_id for m in (first, second, third)]
    default = RevenueAccount.objects.get(organization=organization, name="Sales").id
    assert accounts == [default, other.json()["id"], own.id]


def test_sale_refusals_name_the_field(api, organization, other_organization, contact):
    plan = create_plan(api)
    assert set(field_errors(api.post(URL, {}, format="json"))) == {"contactId", "planId"}
    foreign_contact = Contact.objects.create(organization=other_organization, first_name="Zed")
    foreign_plan = Plan.objects.create(organization=other_organization, name="Theirs", price=1)
    assert "contactId" in field_errors(sell(api, foreign_contact, plan))
    assert "planId" in field_errors(sell(api, contact, {"id": foreign_plan.id}))
    for bad in ({"price": -1}, {"signupFee": "5"}, {"startDate": "tomorrow"}, {"startDate": 5}, {"paymentStatus": "x"}):
        assert set(field_errors(sell(api, contact, plan, **bad))) == {next(iter(bad))}
    assert field_errors(sell(api, contact, plan, price=1.234)) == {
        "price": ["Ensure that there are no more than 2 decimal places."]
    }

    archived = Contact.objects.create(organization=organization, first_name="Gone", status="archived")
    assert field_errors(sell(api, archived, plan)) == {"contactId": ["The contact is archived."]}
    assert api.post(f"{PLANS}/{plan['id']}/retire").status_code == 200
    assert field_errors(sell(api, contact, plan)) == {"planId": ["The plan is retired or inactive: it cannot be sold."]}
    inactive = create_plan(api, isActive=False)
    assert "planId" in field_errors(sell(api, contact, inactive))
    assert not Membership.objects.exists() and not Transaction.objects.exists()
    assert not DomainEvent.objects.filter(type__startswith="membership.").exists()


def test_list_filters_and_contact_email_rule(api, client_for, organization, contact, club):
    other_contact = Contact.objects.create(organization=organization, first_name="Bo", email="bo@example.com")
    monthly = create_plan(api, clubId=club.id)
    weekly = create_plan(api, name="Weekly", billingFrequency="weekly")
    a = sold(api, contact, monthly, startDate="2026-01-10", paymentStatus="paid")
    b = sold(api, other_contact, weekly, startDate="2026-02-10")
    c = sold(api, contact, weekly, startDate="2026-03-10")
    assert api.post(f"{URL}/{c['id']}/pause").status_code == 200

    def ids(**params):
        response = api.get(URL, params)
        assert response.status_code == 200, response.content
        return [row["id"] for row in response.json()["data"]]

    assert ids() == [c["id"], b["id"], a["id"]]
    assert ids(contactId=contact.id) == [c["id"], a["id"]]
    assert ids(planId=weekly["id"]) == [c["id"], b["id"]]
    assert ids(clubId=club.id) == [a["id"]]
    assert ids(status="paused") == [c["id"]]
    assert ids(status="active,paused", paymentStatus="unpaid") == [c["id"], b["id"]]
    assert ids(paymentStatus="paid") == [a["id"]]
    assert ids(startDate="2026-02-10") == [c["id"], b["id"]]
    assert ids(startDate="2026-02-01", endDate="2026-02-10") == [b["id"]]
    assert ids(endDate="2026-01-10", ordering="startDate") == [a["id"]]
    assert ids(ordering="startDate") == [a["id"], b["id"], c["id"]]
    for bad in ({"status": "gone"}, {"paymentStatus": "no_charge"}, {"startDate": "2026-13-01"}, {"contactId": "x"}):
        assert api.get(URL, bad).status_code == 400
    assert api.get(URL, {"startDate": "2026-03-01", "endDate": "2026-02-01"}).status_code == 400

    reader = client_for("memberships:read")
    assert {row["contactEmail"] for row in reader.get(URL).json()["data"]} == {None}
    assert reader.get(f"{URL}/{a['id']}").json()["contactEmail"] is None
    both = client_for("memberships:read contacts:read")
    assert both.get(f"{URL}/{a['id']}").json()["contactEmail"] == "ana@example.com"


def test_list_costs_the_same_queries_for_1_or_200_rows(api, organization, contact, django_assert_max_num_queries):
    plan = Plan.objects.create(organization=organization, name="Monthly", price=Decimal("40"))
    Membership.objects.create(organization=organization, contact=contact, plan=plan, start_date=dt.date(2026, 1, 1))
    api.get(URL)  # the key's first use writes last_used_at
    with django_assert_max_num_queries(8) as one:
        assert len(api.get(URL).json()["data"]) == 1
    Membership.objects.bulk_create(
        [Membership(organization=organization, contact=contact, plan=plan, start_date=dt.date(2026, 1, 1))] * 199
    )
    with django_assert_max_num_queries(len(one.captured_queries)):
        assert len(api.get(URL, {"limit": 200}).json()["data"]) == 200


def test_patch_paid_state_follows_on_the_latest_periods_charges(api, contact):
    plan = create_plan(api, signupFee=10)
    body = sold(api, contact, plan)
    url = f"{URL}/{body['id']}"
    DomainEvent.objects.all().delete()

    response = api.patch(url, {"paymentStatus": "paid"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["paymentStatus"] == "paid"
    rows = list(Transaction.objects.filter(membership_id=body["id"]).order_by("id"))
    assert [(r.payment_status, r.paid_amount) for r in rows] == [("paid", Decimal("40")), ("paid", Decimal("10"))]
    assert all(r.paid_at is not None for r in rows)
    invoice = Invoice.objects.get()
    assert (invoice.status, invoice.amount_paid) == ("paid", Decimal("50"))
    (invoice_updated,) = events("invoice.updated")
    assert sorted(invoice_updated.changed_fields) == ["amountDue", "amountPaid", "status"]
    assert invoice_updated.data["status"] == "paid"
    (updated,) = events("membership.updated")
    assert updated.changed_fields == ["paymentStatus"] and updated.data == response.json()
    assert [e.changed_fields for e in events("transaction.updated")] == [["paidAmount", "paymentStatus", "paidAt"]] * 2

    assert api.patch(url, {"paymentStatus": "paid"}, format="json").status_code == 200  # nothing changes
    assert len(events("membership.updated")) == 1 and len(events("transaction.updated")) == 2

    assert api.patch(url, {"paymentStatus": "unpaid"}, format="json").json()["paymentStatus"] == "unpaid"
    rows = list(Transaction.objects.filter(membership_id=body["id"]).order_by("id"))
    assert [(r.payment_status, r.paid_amount, r.paid_at) for r in rows] == [("unpaid", 0, None)] * 2
    invoice.refresh_from_db()
    assert (invoice.status, invoice.amount_paid) == ("open", 0)
    assert len(events("invoice.updated")) == 2


def test_patch_price_end_date_and_notes(api, contact):
    plan = create_plan(api, autoRenews=True)
    body = sold(api, contact, plan, startDate="2026-01-01")
    url = f"{URL}/{body['id']}"
    response = api.patch(url, {"price": 45, "endDate": "2026-02-15", "notes": "VIP"}, format="json")
    assert response.status_code == 200, response.content
    changed = response.json()
    assert (changed["price"], changed["endDate"], changed["nextBillingDate"], changed["notes"]) == (
        45.0,
        "2026-02-15",
        "2026-02-16",
        "VIP",
    )
    assert Transaction.objects.get(membership_id=body["id"]).amount == Decimal("40")  # billed periods keep theirs
    assert sorted(events("membership.updated")[-1].changed_fields) == ["endDate", "nextBillingDate", "notes", "price"]
    assert api.patch(url, {"endDate": None}, format="json").json()["nextBillingDate"] is None
    assert field_errors(api.patch(url, {"endDate": "2025-12-31"}, format="json")) == {
        "endDate": ["Must not be before `startDate`."]
    }
    assert set(field_errors(api.patch(url, {"price": "1", "paymentStatus": "void"}, format="json"))) == {
        "price",
        "paymentStatus",
    }
    assert api.post(f"{URL}/{body['id']}/cancel").status_code == 200
    refused = api.patch(url, {"endDate": "2026-03-01"}, format="json")
    assert refused.status_code == 409
    assert refused.json()["code"] == "INVALID_STATE_TRANSITION"
    assert refused.json()["details"] == {"currentStatus": "cancelled"}
    assert api.patch(url, {"notes": "Left", "paymentStatus": "paid"}, format="json").status_code == 200


def test_pause_resume_cancel_and_every_refused_transition(api, organization, contact):
    body = sold(api, contact, create_plan(api, autoRenews=True), startDate="2026-01-01")
    url = f"{URL}/{body['id']}"

    def refused(verb, status, payload=None):
        response = api.post(f"{url}/{verb}", payload or {}, format="json")
        assert response.status_code == 409, response.content
        assert response.json()["code"] == "INVALID_STATE_TRANSITION"
        assert response.json()["details"] == {"currentStatus": status}

    refused("resume", "active")
    today = timezone.localdate()
    assert field_errors(api.post(f"{url}/pause", {"resumeDate": today.isoformat()}, format="json")) == {
        "resumeDate": ["Must be after today; resume now with /resume."]
    }
    resume_on = (today + dt.timedelta(days=7)).isoformat()
    paused = api.post(f"{url}/pause", {"resumeDate": resume_on}, format="json")
    assert paused.status_code == 200, paused.content
    assert (paused.json()["status"], paused.json()["resumeDate"]) == ("paused", resume_on)
    assert paused.json()["pausedAt"] is not None
    refused("pause", "paused")
    resumed = api.post(f"{url}/resume")
    assert resumed.status_code == 200
    assert (resumed.json()["status"], resumed.json()["pausedAt"], resumed.json()["resumeDate"]) == (
        "active",
        None,
        None,
    )

    later = api.post(f"{url}/cancel", {"effective": "end_of_period", "reason": " Moving "}, format="json")
    assert later.status_code == 200, later.content
    assert (later.json()["status"], later.json()["cancelAt"], later.json()["nextBillingDate"]) == (
        "active",
        "2026-02-01",  # the day after endDate 2026-01-31
        None,
    )
    assert later.json()["cancellationReason"] == "Moving"
    assert sorted(events("membership.updated")[-1].changed_fields) == [
        "cancelAt",
        "cancellationReason",
        "nextBillingDate",
    ]
    assert api.post(f"{url}/cancel", {"effective": "later"}, format="json").status_code == 400
    now = api.post(f"{url}/cancel", {"effective": "immediately"}, format="json")
    assert (now.json()["status"], now.json()["cancelAt"]) == ("cancelled", None)
    assert now.json()["cancelledAt"] is not None and now.json()["cancellationReason"] == "Moving"
    for verb in ("pause", "resume", "cancel"):
        refused(verb, "cancelled")
    Membership.objects.filter(pk=body["id"]).update(status="expired")
    for verb in ("pause", "resume", "cancel"):
        refused(verb, "expired")
    types = [e.type for e in DomainEvent.objects.filter(type__startswith="membership.").order_by("created_at", "id")]
    assert types == [
        "membership.created",
        "membership.paused",
        "membership.resumed",
        "membership.updated",
        "membership.cancelled",
    ]
    assert events("membership.cancelled")[0].data["status"] == "cancelled"


def test_cancel_a_paused_membership_and_end_of_period_needs_an_end(api, contact):
    open_ended = sold(api, contact, create_plan(api, billingFrequency="one_time"))
    response = api.post(f"{URL}/{open_ended['id']}/cancel", {"effective": "end_of_period"}, format="json")
    assert field_errors(response) == {
        "effective": ["The membership has no end date, so no period end: cancel it `immediately`."]
    }
    assert api.post(f"{URL}/{open_ended['id']}/pause").status_code == 200
    cancelled = api.post(f"{URL}/{open_ended['id']}/cancel", {"reason": "Injury"}, format="json").json()
    assert (cancelled["status"], cancelled["cancellationReason"]) == ("cancelled", "Injury")


def test_archiving_the_contact_cancels_its_memberships_with_full_payloads(api, organization, contact):
    plan = create_plan(api)
    active = sold(api, contact, plan)
    paused = sold(api, contact, plan)
    api.post(f"{URL}/{paused['id']}/pause")
    DomainEvent.objects.all().delete()
    assert (
        api.post(f"/v1/platform/contacts/{contact.id}/archive", {"reason": "Moved"}, format="json").status_code == 200
    )
    for membership in (active, paused):
        body = api.get(f"{URL}/{membership['id']}").json()
        assert (body["status"], body["cancellationReason"]) == ("cancelled", "Moved")
    cancelled = events("membership.cancelled")
    assert sorted(e.data["id"] for e in cancelled) == sorted([active["id"], paused["id"]])
    assert (
        cancelled[0].data["plan"] == {"id": plan["id"], "name": "Monthly"}
        and cancelled[0].data["status"] == "cancelled"
    )
    assert "nextBillingDate" in cancelled[0].data  # the Membership shape, as GET returns it
    assert api.post(f"/v1/platform/contacts/{contact.id}/restore").status_code == 200
    assert api.get(f"{URL}/{active['id']}").json()["status"] == "cancelled"


def test_a_plan_with_a_sold_membership_cannot_be_deleted(api, contact):
    plan = create_plan(api)
    sold(api, contact, plan)
    response = api.delete(f"{PLANS}/{plan['id']}")
    assert response.status_code == 409
    assert response.json()["code"] == "RESOURCE_IN_USE"
    assert response.json()["details"] == {"references": {"memberships": 1}}
    unsold = create_plan(api, name="Unsold")
    assert api.delete(f"{PLANS}/{unsold['id']}").status_code == 204


def test_other_organizations_memberships_are_not_found(api, other_organization, client_for):
    contact = Contact.objects.create(organization=other_organization, first_name="Zed")
    plan = Plan.objects.create(organization=other_organization, name="Theirs", price=1)
    theirs = Membership.objects.create(
        organization=other_organization, contact=contact, plan=plan, start_date=dt.date(2026, 1, 1)
    )
    assert api.get(URL).json()["total"] == 0
    for method, path in (("get", ""), ("patch", ""), ("post", "/pause"), ("post", "/resume"), ("post", "/cancel")):
        response = getattr(api, method)(f"{URL}/{theirs.id}{path}", {}, format="json")
        assert response.status_code == 404 and response.json()["code"] == "NOT_FOUND"
    theirs.refresh_from_db()
    assert theirs.status == "active"


def test_sale_and_end_dates_are_bounded(api, contact):
    """Today is 15 January 2026 on the frozen clock (Europe/Madrid). Dates far out were a 500 (9999-12-31: the
    period arithmetic overflowed) or billed decades of periods (1900-01-01)."""
    plan = create_plan(api, autoRenews=True, billingFrequency="annually")
    for start in ("9999-12-31", "1900-01-01", "2200-01-01", "2025-01-13", "2027-01-17"):
        assert list(field_errors(sell(api, contact, plan, startDate=start))) == ["startDate"], start
    for start in ("2025-01-14", "2027-01-16"):  # 366 days either way
        assert sell(api, contact, plan, startDate=start).status_code == 201, start
    assert Membership.objects.count() == 2
    assert Transaction.objects.count() == 2  # one period each

    url = f"{URL}/{sold(api, contact, plan, startDate='2026-01-15')['id']}"
    for end in ("9999-12-31", "2200-01-01", "2036-01-16"):
        assert list(field_errors(api.patch(url, {"endDate": end}, format="json"))) == ["endDate"], end
    assert api.patch(url, {"endDate": "2036-01-15"}, format="json").json()["nextBillingDate"] == "2036-01-16"
    pause = api.post(f"{url}/pause", {"resumeDate": "9999-12-31"}, format="json")
    assert list(field_errors(pause)) == ["resumeDate"]
