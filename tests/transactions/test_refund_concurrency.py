"""Concurrent refunds on real parallel PostgreSQL connections never refund more than was recorded."""

from decimal import Decimal

import pytest
from django.utils import timezone

from apps.transactions.models import Transaction
from tests.concurrency import race

URL = "/v1/platform/transactions"


def _external(organization, amount):
    now = timezone.now()
    return Transaction.objects.create(
        organization=organization,
        type="external_revenue",
        source_type="external",
        description="Fees",
        amount=amount,
        paid_amount=amount,
        payment_status="paid",
        occurred_at=now,
        paid_at=now,
    )


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_refunds_of_more_than_half_one_wins(organization, client_for):
    original = _external(organization, Decimal("100"))
    clients = [client_for("*") for _ in range(2)]
    results = race([lambda c=c: c.post(f"{URL}/{original.id}/refund", {"amount": 60}, format="json") for c in clients])
    assert sorted(r.status_code for r in results) == [201, 409], [r.content[:200] for r in results]
    refused = next(r for r in results if r.status_code == 409)
    assert refused.json()["code"] == "REFUND_EXCEEDS_BALANCE"
    assert refused.json()["details"] == {"refundable": 40.0}
    original.refresh_from_db()
    assert original.refunded_amount == Decimal("60") and original.payment_status == "partially_refunded"
    assert Transaction.objects.filter(refund_of=original).count() == 1


@pytest.mark.django_db(transaction=True)
def test_ten_parallel_refunds_of_ten_all_count(organization, client_for):
    original = _external(organization, Decimal("100"))
    clients = [client_for("*") for _ in range(12)]
    results = race([lambda c=c: c.post(f"{URL}/{original.id}/refund", {"amount": 10}, format="json") for c in clients])
    assert sorted(r.status_code for r in results) == [201] * 10 + [409] * 2
    original.refresh_from_db()
    assert original.refunded_amount == Decimal("100") and original.payment_status == "refunded"
