"""Issuing invoices: numbered per organization without gaps, their money copied from the transactions they list.

`issue_invoice` runs inside the sale's transaction and locks the organization's `InvoiceSequence` row, so concurrent
sales take consecutive numbers one after the other and a rolled-back sale gives its number back. Nothing here takes
a payment: `refresh_invoice_payment` follows the payment state recorded on the transactions.
"""

import datetime as dt
from decimal import Decimal

from django.db import transaction

from apps.domain_events.services import emit
from apps.kernel import clock
from apps.kernel.money import currency_exponent, round_money
from apps.transactions.choices import TransactionPaymentStatus
from apps.transactions.models import Transaction

from .choices import InvoiceStatus
from .models import Invoice, InvoiceLine, InvoiceSequence
from .resources import INVOICE

ZERO = Decimal("0")
PAYMENT_TERMS_DAYS = 14
NUMBER_FORMAT = "INV-{:06d}"


def _next_sequence(organization) -> int:
    InvoiceSequence.objects.bulk_create([InvoiceSequence(organization=organization)], ignore_conflicts=True)
    sequence = InvoiceSequence.objects.select_for_update().get(pk=organization.pk)
    sequence.last_number += 1
    sequence.save(update_fields=["last_number"])
    return sequence.last_number


def _collected(charge: Transaction) -> Decimal:
    """What was paid on a transaction and not refunded, at most its amount."""
    if charge.payment_status == TransactionPaymentStatus.VOID:
        return ZERO
    return max(ZERO, min(charge.amount, (charge.paid_amount or ZERO) - (charge.refunded_amount or ZERO)))


def _status(total: Decimal, paid: Decimal, charges: list[Transaction]) -> str:
    if charges and all(charge.payment_status == TransactionPaymentStatus.VOID for charge in charges):
        return InvoiceStatus.VOID
    return InvoiceStatus.PAID if paid >= total else InvoiceStatus.OPEN


@transaction.atomic
def issue_invoice(organization, transactions: list[Transaction], *, issue_date: dt.date | None = None) -> Invoice:
    """An invoice listing `transactions` (one line each, in order), `open`, or `paid` when they are paid in full.

    The contact and club are those of the first transaction. Emits `invoice.created`."""
    charges = [charge for charge in transactions if charge is not None]
    if not charges:
        raise ValueError("An invoice lists at least one transaction.")
    exponent = currency_exponent(organization.currency)
    issue_date = issue_date or clock.today(organization)
    lines, subtotal, tax, paid = [], ZERO, ZERO, ZERO
    for position, charge in enumerate(charges):
        line_tax = round_money(charge.tax_amount or ZERO, exponent)
        net = round_money(charge.amount, exponent) - line_tax
        lines.append(
            InvoiceLine(
                position=position,
                description=charge.description,
                quantity=1,
                unit_price=net,
                amount=net,
                tax=line_tax,
                transaction=charge,
            )
        )
        subtotal += net
        tax += line_tax
        paid += _collected(charge)
    total = subtotal + tax
    invoice = Invoice.objects.create(
        organization=organization,
        sequence=(sequence := _next_sequence(organization)),
        number=NUMBER_FORMAT.format(sequence),
        status=_status(total, paid, charges),
        contact_id=charges[0].contact_id,
        club_id=charges[0].club_id,
        currency=organization.currency,
        issue_date=issue_date,
        due_date=issue_date + dt.timedelta(days=PAYMENT_TERMS_DAYS),
        subtotal=subtotal,
        tax=tax,
        total=total,
        amount_paid=min(paid, total),
    )
    for line in lines:
        line.invoice = invoice
    InvoiceLine.objects.bulk_create(lines)
    Transaction.objects.filter(pk__in=[charge.pk for charge in charges]).update(invoice=invoice)
    for charge in charges:
        charge.invoice = invoice
    emit(organization, "invoice.created", lambda: INVOICE.event_body(organization, invoice.pk))
    return invoice


@transaction.atomic
def refresh_invoice_payment(invoice_id: int | None) -> Invoice | None:
    """Recompute `amountPaid` and `status` of an invoice from its transactions (row-locked); emits
    `invoice.updated` with the changed fields when something changed. Call after a transaction's payment changed."""
    if invoice_id is None:
        return None
    # Lock the invoice row only: a plain FOR UPDATE would lock the joined organization row too.
    invoice = Invoice.objects.select_for_update(of=("self",)).select_related("organization").get(pk=invoice_id)
    if invoice.status in (InvoiceStatus.DRAFT, InvoiceStatus.UNCOLLECTIBLE):
        return invoice
    charges = list(Transaction.objects.filter(invoice_id=invoice.pk))
    paid = min(sum((_collected(charge) for charge in charges), ZERO), invoice.total)
    status = _status(invoice.total, paid, charges)
    changed = []
    if paid != invoice.amount_paid:
        invoice.amount_paid = paid
        changed += ["amountPaid", "amountDue"]
    if status != invoice.status:
        invoice.status = status
        changed.append("status")
    if changed:
        invoice.save(update_fields=["amount_paid", "status", "updated_at"])
        emit(
            invoice.organization,
            "invoice.updated",
            lambda: INVOICE.event_body(invoice.organization, invoice.pk),
            changed,
        )
    return invoice
