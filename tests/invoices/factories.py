"""Invoices as the service issues them, from transactions made here."""

import datetime as dt
from decimal import Decimal

from django.utils import timezone

from apps.invoices import services
from apps.transactions.models import Transaction


def charge(organization, amount="24.20", tax="4.20", paid="0", status="unpaid", description="Monthly membership", **f):
    return Transaction.objects.create(
        organization=organization,
        type="charge",
        source_type=f.pop("source_type", "membership"),
        description=description,
        amount=Decimal(amount),
        tax_amount=Decimal(tax),
        paid_amount=Decimal(paid),
        payment_status=status,
        occurred_at=timezone.now(),
        **f,
    )


def invoice(organization, *charges, issue_date: dt.date | None = None, **charge_fields):
    """An invoice of `charges` (one charge made from `charge_fields` when none is given)."""
    charges = list(charges) or [charge(organization, **charge_fields)]
    return services.issue_invoice(organization, charges, issue_date=issue_date)
