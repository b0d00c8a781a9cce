"""Transactions through the HTTP API: the list's default window and filters, outside revenue with its rounding and
bounds, refunds bounded by what is left, events, tenancy."""

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from apps.billing.models import RevenueAccount
from apps.contacts.models import Contact
from apps.domain_events.models import DomainEvent
from apps.transactions.models import Transaction

URL = "/v1/platform/transactions"


def _record(api, **body):
    return api.post(URL, {"amount": 120.5, "description": "Tournament fees", **body}, format="json")


def _fields(response):
    return response.json()["details"]["fields"]


def _row(organization, created_ago=None, **fields):
    now = timezone.now()
    values = {
        "organization": organization,
        "type": "charge",
        "source_type": "booking",
        "description": "Court 1",
        "amount": Decimal("20.00"),
        "payment_status": "unpaid",
        "occurred_at": now,
    }
    values.update(fields)
    row = Transaction.objects.create(**values)
    if created_ago is not None:
        Transaction.objects.filter(pk=row.pk).update(created_at=now - created_ago)
    return row


def test_record_outside_revenue_presents_every_field(api, organization, club):
    account = RevenueAccount.objects.create(organization=organization, name="Tournaments")
    response = _record(
        api,
        occurredAt="2026-03-01T10:00:00+01:00",
        revenueAccountId=account.id,
        clubId=club.id,
        reference=" BANK-42 ",
        paymentMethod="bank_transfer",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    row = Transaction.objects.get(organization=organization)
    assert response["Location"].endswith(f"{URL}/{row.id}")
    assert body == {
        "id": row.id,
        "type": "external_revenue",
        "sourceType": "external",
        "description": "Tournament fees",
        "contactId": None,
        "contactName": None,
        "contactEmail": None,
        "clubId": club.id,
        "bookingId": None,
        "membershipId": None,
        "productId": None,
        "invoiceId": None,
        "revenueAccountId": account.id,
        "refundOfId": None,
        "amount": 120.5,
        "taxAmount": 0.0,
        "paidAmount": 120.5,
        "refundedAmount": 0.0,
        "paymentStatus": "paid",
        "paymentMethod": "bank_transfer",
        "reference": "BANK-42",
        "occurredAt": "2026-03-01T09:00:00Z",
        "paidAt": "2026-03-01T09:00:00Z",
        "createdAt": body["createdAt"],
        "updatedAt": body["updatedAt"],
    }
    assert row.amount == Decimal("120.500") and row.paid_amount == row.amount
    event = DomainEvent.objects.get(type="transaction.created")
    assert event.data["id"] == row.id and event.data["amount"] == 120.5
    assert api.get(f"{URL}/{row.id}").json() == body


def test_defaults_are_now_and_the_default_sales_account(api, organization):
    before = timezone.now()
    response = _record(api)
    assert response.status_code == 201, response.content
    default = RevenueAccount.objects.get(organization=organization, is_default=True)
    row = Transaction.objects.get(organization=organization)
    assert row.revenue_account_id == default.id
    assert row.occurred_at >= before and row.paid_at == row.occurred_at
    assert row.reference is None and row.payment_method is None and row.club_id is None


@pytest.mark.parametrize(
    ("currency", "sent", "stored"),
    [
        ("EUR", 10.005, Decimal("10.01")),
        ("EUR", 10.004, Decimal("10.00")),
        ("JPY", 1500.5, Decimal("1501")),
        ("KWD", 1.0005, Decimal("1.001")),
    ],
)
def test_amounts_round_half_up_at_the_currency_precision(api, organization, currency, sent, stored):
    organization.currency = currency
    organization.save()
    response = _record(api, amount=sent)
    assert response.status_code == 201, response.content
    assert Transaction.objects.get(organization=organization).amount == stored
    assert response.json()["amount"] == float(stored)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"amount": 0}, "amount"),
        ({"amount": -1}, "amount"),
        ({"amount": 0.004}, "amount"),  # rounds to 0.00 in EUR
        ({"amount": "10"}, "amount"),
        ({"amount": True}, "amount"),
        ({"amount": 1e12}, "amount"),
        ({"description": ""}, "description"),
        ({"description": "   "}, "description"),
        ({"description": "x" * 501}, "description"),
        ({"description": 5}, "description"),
        ({"occurredAt": "2026-03-01T10:00:00"}, "occurredAt"),
        ({"reference": "r" * 121}, "reference"),
        ({"paymentMethod": "m" * 41}, "paymentMethod"),
        ({"clubId": "1"}, "clubId"),
    ],
)
def test_record_rejects_bad_values(api, organization, body, field):
    response = _record(api, **body)
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "VALIDATION_ERROR"
    assert field in _fields(response)
    assert not Transaction.objects.exists()


def test_required_fields(api):
    response = api.post(URL, {}, format="json")
    assert response.status_code == 400
    assert set(_fields(response)) == {"amount", "description"}


def test_bounds_accept_their_edges(api):
    assert _record(api, amount=0.005, description="x" * 500, reference="r" * 120).status_code == 201
    assert _record(api, amount=9999999999.99, paymentMethod="m" * 40).status_code == 201


def test_ids_of_another_organization_and_inactive_accounts_are_400(api, organization, other_organization):
    foreign = RevenueAccount.objects.create(organization=other_organization, name="Theirs")
    inactive = RevenueAccount.objects.create(organization=organization, name="Old", is_active=False)
    assert "revenueAccountId" in _fields(_record(api, revenueAccountId=foreign.id))
    assert "revenueAccountId" in _fields(_record(api, revenueAccountId=inactive.id))
    assert not Transaction.objects.exists()


def test_nothing_to_write_without_transactions_write(client_for):
    response = client_for("transactions:read").post(URL, {"amount": 1, "description": "x"}, format="json")
    assert response.status_code == 403
    assert response.json()["requiredScope"] == "transactions:write"


# The list


def test_default_window_is_the_last_24_hours(api, organization):
    recent = _row(organization, created_ago=dt.timedelta(hours=23))
    _row(organization, created_ago=dt.timedelta(hours=25))
    response = api.get(URL)
    assert response.status_code == 200
    assert [item["id"] for item in response.json()["data"]] == [recent.id]


def test_one_bound_leaves_the_other_end_open(api, organization):
    old = _row(organization, created_ago=dt.timedelta(days=10))
    recent = _row(organization, created_ago=dt.timedelta(hours=1))
    since = (timezone.now() - dt.timedelta(days=11)).date().isoformat()
    until = (timezone.now() - dt.timedelta(days=5)).date().isoformat()
    assert {i["id"] for i in api.get(URL, {"startDate": since}).json()["data"]} == {old.id, recent.id}
    assert {i["id"] for i in api.get(URL, {"endDate": until}).json()["data"]} == {old.id}
    both = api.get(URL, {"startDate": since, "endDate": until}).json()["data"]
    assert [i["id"] for i in both] == [old.id]
    assert api.get(URL, {"startDate": "2026-13-01"}).status_code == 400
    assert api.get(URL, {"startDate": "2026-03-02", "endDate": "2026-03-01"}).status_code == 400


def test_list_filters_and_ordering(api, organization, club):
    contact = Contact.objects.create(organization=organization, first_name="Ana", last_name="Ruiz", email="a@x.es")
    account = RevenueAccount.objects.create(organization=organization, name="Bar")
    paid = _row(organization, payment_status="paid", contact=contact, club=club, amount=Decimal("5"))
    unpaid = _row(organization, revenue_account=account, amount=Decimal("50"))
    external = _row(organization, type="external_revenue", source_type="external", payment_status="paid")

    def ids(**params):
        response = api.get(URL, params)
        assert response.status_code == 200, response.content
        return [item["id"] for item in response.json()["data"]]

    assert set(ids(paymentStatus="paid")) == {paid.id, external.id}
    assert set(ids(paymentStatus="paid,unpaid")) == {paid.id, unpaid.id, external.id}
    assert ids(type="external_revenue") == [external.id]
    assert set(ids(sourceType="booking")) == {paid.id, unpaid.id}
    assert ids(contactId=contact.id) == [paid.id]
    assert ids(clubId=club.id) == [paid.id]
    assert ids(revenueAccountId=account.id) == [unpaid.id]
    assert ids(bookingId=999999) == []
    assert ids(membershipId=999999) == []
    assert ids(ordering="amount") == [paid.id, external.id, unpaid.id]
    assert ids(ordering="-amount") == [unpaid.id, external.id, paid.id]
    assert ids() == [external.id, unpaid.id, paid.id]
    for bad in ({"paymentStatus": "settled"}, {"clubId": "x"}, {"ordering": "description"}, {"type": "gift"}):
        response = api.get(URL, bad)
        assert response.status_code == 400, bad
        assert set(_fields(response)) == set(bad)


def test_contact_email_needs_contacts_read(client_for, organization):
    contact = Contact.objects.create(organization=organization, first_name="Ana", last_name="Ruiz", email="a@x.es")
    row = _row(organization, contact=contact)
    full = client_for("transactions:read contacts:read").get(f"{URL}/{row.id}").json()
    assert (full["contactName"], full["contactEmail"]) == ("Ana Ruiz", "a@x.es")
    assert client_for("transactions:read").get(f"{URL}/{row.id}").json()["contactEmail"] is None


def test_another_organizations_transaction_is_404(api, other_organization):
    row = _row(other_organization)
    assert api.get(f"{URL}/{row.id}").status_code == 404
    assert api.post(f"{URL}/{row.id}/refund", {"amount": 1}, format="json").status_code == 404
    assert api.get(URL).json()["data"] == []


# Refunds


def _external(api, amount=100):
    response = _record(api, amount=amount)
    assert response.status_code == 201, response.content
    return response.json()["id"]


def _refund(api, pk, **body):
    return api.post(f"{URL}/{pk}/refund", {"amount": 30, **body}, format="json")


def test_refunds_down_to_exactly_zero(api, organization):
    pk = _external(api)
    first = _refund(api, pk, reason="Rain", occurredAt="2026-03-02T10:00:00Z")
    assert first.status_code == 201, first.content
    body = first.json()
    assert first["Location"].endswith(f"{URL}/{body['id']}")
    assert body["type"] == "refund" and body["refundOfId"] == pk and body["sourceType"] == "external"
    assert body["amount"] == 30.0 and body["refundedAmount"] == 30.0 and body["paymentStatus"] == "refunded"
    assert body["description"] == "Rain" and body["occurredAt"] == "2026-03-02T10:00:00Z"
    original = api.get(f"{URL}/{pk}").json()
    assert (original["refundedAmount"], original["paymentStatus"]) == (30.0, "partially_refunded")
    assert _refund(api, pk, amount=70).status_code == 201
    original = api.get(f"{URL}/{pk}").json()
    assert (original["refundedAmount"], original["paymentStatus"]) == (100.0, "refunded")
    refused = _refund(api, pk, amount=0.01)
    assert refused.status_code == 409
    assert refused.json()["code"] == "REFUND_EXCEEDS_BALANCE"
    assert refused.json()["details"] == {"refundable": 0.0}
    assert Transaction.objects.filter(type="refund").count() == 2
    refunded = DomainEvent.objects.filter(type="transaction.refunded").order_by("created_at", "id")
    assert [e.data["refundedAmount"] for e in refunded] == [30.0, 100.0]
    assert DomainEvent.objects.filter(type="transaction.created").count() == 3


def test_refund_above_the_balance_is_409_and_changes_nothing(api, organization):
    pk = _external(api, amount=50)
    response = _refund(api, pk, amount=50.01)
    assert response.status_code == 409
    assert response.json()["code"] == "REFUND_EXCEEDS_BALANCE"
    assert response.json()["details"] == {"refundable": 50.0}
    assert Transaction.objects.get(pk=pk).refunded_amount == 0
    assert not Transaction.objects.filter(type="refund").exists()
    assert not DomainEvent.objects.filter(type="transaction.refunded").exists()


@pytest.mark.parametrize("kind", [("charge", "booking"), ("refund", "external")])
def test_only_outside_revenue_can_be_refunded(api, organization, kind):
    row = _row(organization, type=kind[0], source_type=kind[1], payment_status="paid")
    response = _refund(api, row.id, amount=1)
    assert response.status_code == 409
    assert response.json()["code"] == "NOT_EXTERNAL_REVENUE"
    assert not Transaction.objects.filter(refund_of=row).exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"amount": 0}, "amount"),
        ({"amount": "5"}, "amount"),
        ({"reason": "r" * 501}, "reason"),
        ({"occurredAt": "yesterday"}, "occurredAt"),
    ],
)
def test_refund_rejects_bad_values(api, body, field):
    pk = _external(api)
    response = _refund(api, pk, **body)
    assert response.status_code == 400
    assert field in _fields(response)


def test_refund_needs_transactions_write(client_for, api):
    pk = _external(api)
    response = client_for("transactions:read").post(f"{URL}/{pk}/refund", {"amount": 1}, format="json")
    assert response.status_code == 403
    assert response.json()["requiredScope"] == "transactions:write"
