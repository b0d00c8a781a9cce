"""Issuing invoices: gapless per-organization numbers (also under concurrency and rollback), money copied from the
transactions, payment state followed, and the invoice events."""

from decimal import Decimal
from functools import partial

import pytest
from django.db import transaction
from django.utils import timezone

from apps.domain_events.models import DomainEvent
from apps.invoices import services
from apps.invoices.links import read_pdf_token
from apps.invoices.models import Invoice
from apps.transactions.models import Transaction
from tests.concurrency import race


def _charge(organization, amount="24.20", tax="4.20", paid="0", status="unpaid", contact=None):
    return Transaction.objects.create(
        organization=organization,
        type="charge",
        source_type="membership",
        description="Monthly membership",
        contact=contact,
        amount=Decimal(amount),
        tax_amount=Decimal(tax),
        paid_amount=Decimal(paid),
        payment_status=status,
        occurred_at=timezone.now(),
    )


@pytest.mark.django_db
def test_an_invoice_lists_its_transactions_with_totals(organization, contact):
    first = _charge(organization, contact=contact)
    fee = _charge(organization, amount="12.10", tax="2.10", contact=contact)
    invoice = services.issue_invoice(organization, [first, fee])
    assert (invoice.number, invoice.status) == ("INV-000001", "open")
    assert (invoice.subtotal, invoice.tax, invoice.total, invoice.amount_paid) == (
        Decimal("30.00"),
        Decimal("6.30"),
        Decimal("36.30"),
        Decimal("0"),
    )
    assert list(invoice.lines.values_list("amount", "tax", "transaction_id")) == [
        (Decimal("20.000"), Decimal("4.200"), first.id),
        (Decimal("10.000"), Decimal("2.100"), fee.id),
    ]
    assert set(Transaction.objects.filter(invoice=invoice).values_list("id", flat=True)) == {first.id, fee.id}
    event = DomainEvent.objects.get(type="invoice.created")
    assert (event.data["number"], event.data["total"], event.data["amountDue"]) == ("INV-000001", 36.3, 36.3)
    assert event.data["contactEmail"] == "ana@example.com"  # stored whole; readers get it under their scopes
    assert read_pdf_token(event.data["pdfUrl"].rsplit("/", 1)[1]) == (organization.id, invoice.id, 0)


@pytest.mark.django_db
def test_numbers_are_per_organization_and_a_rolled_back_sale_gives_its_number_back(organization, other_organization):
    assert services.issue_invoice(organization, [_charge(organization)]).number == "INV-000001"
    with pytest.raises(RuntimeError), transaction.atomic():
        services.issue_invoice(organization, [_charge(organization)])
        raise RuntimeError("the sale failed after the invoice")
    assert services.issue_invoice(organization, [_charge(organization)]).number == "INV-000002"
    assert services.issue_invoice(other_organization, [_charge(other_organization)]).number == "INV-000001"


@pytest.mark.django_db
def test_paid_at_once_is_paid_and_payment_changes_are_followed(organization):
    charge = _charge(organization, paid="24.20", status="paid")
    invoice = services.issue_invoice(organization, [charge])
    assert (invoice.status, invoice.amount_paid) == ("paid", Decimal("24.20"))
    Transaction.objects.filter(pk=charge.pk).update(paid_amount=0, payment_status="unpaid")
    refreshed = services.refresh_invoice_payment(invoice.pk)
    assert (refreshed.status, refreshed.amount_paid, refreshed.amount_due) == ("open", 0, Decimal("24.20"))
    event = DomainEvent.objects.get(type="invoice.updated")
    assert event.changed_fields == ["amountPaid", "amountDue", "status"]
    services.refresh_invoice_payment(invoice.pk)  # nothing changed: no second event
    assert DomainEvent.objects.filter(type="invoice.updated").count() == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_sales_take_consecutive_numbers(organization):
    charges = [_charge(organization) for _ in range(6)]
    results = race([partial(services.issue_invoice, organization, [charge]) for charge in charges], catch=(Exception,))
    assert not [result for result in results if isinstance(result, Exception)]
    numbers = sorted(Invoice.objects.filter(organization=organization).values_list("number", flat=True))
    assert numbers == [f"INV-{n:06d}" for n in range(1, 7)]
