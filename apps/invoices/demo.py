"""Demo invoices: three shop sales (product transactions) with their invoices, one paid, one open, one partly paid.

Each sale's transactions carry a `DEMO-SALE-n-m` reference, so a second run finds them and issues no second invoice.
Product prices include tax at the organization's default rate.
"""

import datetime as dt
from decimal import Decimal

from django.utils import timezone

from apps.billing.revenue_accounts import default_account
from apps.kernel import clock
from apps.kernel.money import currency_exponent, round_money, tax_included
from apps.transactions.choices import TransactionPaymentStatus, TransactionSourceType, TransactionType
from apps.transactions.models import Transaction

from .models import Invoice
from .services import issue_invoice

# reference prefix: (contact index, days ago, [(sku, quantity, paid)])
SALES = {
    "DEMO-SALE-1": (0, 10, [("PDL-BALLS", 2, True), ("DRK-ISO", 1, True)]),
    "DEMO-SALE-2": (1, 3, [("PDL-RENT", 1, False)]),
    "DEMO-SALE-3": (3, 1, [("PDL-BALLS", 1, True), ("DRK-WATER", 3, False)]),
}


def _sale_line(organization, reference, product, quantity, paid, contact, day) -> Transaction:
    exponent = currency_exponent(organization.currency)
    amount = round_money(product.price * quantity, exponent)
    tax = tax_included(amount, organization.default_tax_rate, exponent)
    occurred_at = timezone.make_aware(dt.datetime.combine(day, dt.time(12)))
    account = product.revenue_account or default_account(organization)
    charge, _ = Transaction.objects.get_or_create(
        organization=organization,
        reference=reference,
        defaults={
            "type": TransactionType.CHARGE,
            "source_type": TransactionSourceType.PRODUCT,
            "description": f"{product.name} x {quantity}",
            "contact": contact,
            "club_id": product.club_id,
            "product": product,
            "revenue_account": account,
            "amount": amount,
            "tax_amount": tax,
            "paid_amount": amount if paid else Decimal(0),
            "payment_status": TransactionPaymentStatus.PAID if paid else TransactionPaymentStatus.UNPAID,
            "payment_method": "card" if paid else None,
            "occurred_at": occurred_at,
            "paid_at": occurred_at if paid else None,
        },
    )
    return charge


def seed(organization, ctx: dict) -> None:
    """Idempotent. Needs `ctx["products"]` and `ctx["contacts"]`; puts `ctx["invoices"]` ([Invoice])."""
    products, contacts = ctx.get("products") or {}, ctx.get("contacts") or []
    today = clock.today(organization)
    invoices = []
    for prefix, (contact_index, days_ago, items) in SALES.items():
        if any(sku not in products for sku, _, _ in items) or contact_index >= len(contacts):
            continue
        day = today - dt.timedelta(days=days_ago)
        charges = [
            _sale_line(organization, f"{prefix}-{n}", products[sku], quantity, paid, contacts[contact_index], day)
            for n, (sku, quantity, paid) in enumerate(items, start=1)
        ]
        invoice_id = next((charge.invoice_id for charge in charges if charge.invoice_id), None)
        if invoice_id is None:
            invoices.append(issue_invoice(organization, charges, issue_date=day))
        else:
            invoices.append(Invoice.objects.get(pk=invoice_id))
    ctx["invoices"] = invoices
