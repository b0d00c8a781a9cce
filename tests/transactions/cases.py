import datetime as dt

from django.utils import timezone

from apps.organizations.models import ApiKey
from apps.transactions.models import Transaction
from tests.harness import EndpointCase


def _settle_key_usage(organization):
    """The first request of a fresh API key also writes `last_used_at`; mark the keys used so the contract's
    one-row vs many-rows query comparison counts only the list's own queries."""
    ApiKey.objects.filter(organization=organization).update(last_used_at=timezone.now())


def _external(organization, **fields):
    now = timezone.now()
    values = {
        "organization": organization,
        "type": "external_revenue",
        "source_type": "external",
        "description": "Tournament fees",
        "amount": "100.00",
        "paid_amount": "100.00",
        "payment_status": "paid",
        "occurred_at": now,
        "paid_at": now,
    }
    values.update(fields)
    return Transaction(**values)


def transaction_ids(organization):
    transaction = _external(organization)
    transaction.save()
    return {"id": transaction.id}


def transaction_rows(organization, n):
    _settle_key_usage(organization)
    Transaction.objects.bulk_create([_external(organization, description=f"T{i}") for i in range(n)])
    # An hour ago: inside the default window of the last 24 hours.
    Transaction.objects.filter(organization=organization).update(created_at=timezone.now() - dt.timedelta(hours=1))


CASES = [
    EndpointCase("GET", "/v1/platform/transactions", "transactions:read", list_rows=transaction_rows),
    EndpointCase("GET", "/v1/platform/transactions/{id}", "transactions:read", setup=transaction_ids),
    EndpointCase("POST", "/v1/platform/transactions", "transactions:write", body={"amount": 10, "description": "Fees"}),
    EndpointCase(
        "POST",
        "/v1/platform/transactions/{id}/refund",
        "transactions:write",
        setup=transaction_ids,
        body={"amount": 1},
    ),
    EndpointCase("GET", "/v1/platform/transactions/summary", "transactions:read"),
]
