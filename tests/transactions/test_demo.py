"""Demo outside revenue with a partial refund, idempotent."""

import pytest

from apps.transactions import demo
from apps.transactions.models import Transaction


@pytest.mark.django_db
def test_demo_records_outside_revenue_and_a_refund_once(organization, club, api):
    demo.seed(organization, {"clubs": [club]})
    demo.seed(organization, {"clubs": [club]})
    records = Transaction.objects.filter(organization=organization)
    assert records.filter(type="external_revenue").count() == 2
    refund = records.get(type="refund")
    assert (refund.amount, refund.refund_of.payment_status) == (40, "partially_refunded")
    listed = api.get("/v1/platform/transactions", {"type": "refund", "startDate": "2000-01-01"}).json()["data"]
    assert [row["refundOfId"] for row in listed] == [refund.refund_of_id]
