from decimal import Decimal

from django.utils import timezone

from apps.invoices import services
from apps.organizations.models import ApiKey
from apps.transactions.models import Transaction
from tests.harness import EndpointCase


def _charge(organization, description="Monthly membership"):
    return Transaction(
        organization=organization,
        type="charge",
        source_type="membership",
        description=description,
        amount=Decimal("24.20"),
        tax_amount=Decimal("4.20"),
        occurred_at=timezone.now(),
    )


def invoice_ids(organization):
    charge = _charge(organization)
    charge.save()
    return {"id": services.issue_invoice(organization, [charge]).id}


def invoice_rows(organization, n):
    # The first request of a fresh key also writes `last_used_at`: settle it so only the list's queries count.
    ApiKey.objects.filter(organization=organization).update(last_used_at=timezone.now())
    for charge in Transaction.objects.bulk_create([_charge(organization, f"Item {i}") for i in range(n)]):
        services.issue_invoice(organization, [charge])


CASES = [
    EndpointCase("GET", "/v1/platform/invoices", "invoices:read", list_rows=invoice_rows),
    EndpointCase("GET", "/v1/platform/invoices/{id}", "invoices:read", setup=invoice_ids),
    EndpointCase("GET", "/v1/platform/invoices/summary", "invoices:read"),
]
