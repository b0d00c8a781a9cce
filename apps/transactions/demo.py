"""Demo outside revenue and refunds: a tournament's entry fees collected in cash, part of them refunded, and a
sponsor's payment. Idempotent: the records are found by their `reference`."""

import datetime as dt
from decimal import Decimal

from django.utils import timezone

from . import services
from .choices import TransactionType
from .models import Transaction

OUTSIDE_REVENUE = [
    # reference, description, amount, days ago, refunds [(amount, reason)]
    (
        "DEMO-CASH-1",
        "Padel tournament entry fees (cash box)",
        Decimal("480.00"),
        6,
        [(Decimal("40.00"), "Two teams withdrew")],
    ),
    ("DEMO-SPONSOR-1", "Sponsor payment: Sunday league", Decimal("250.00"), 3, []),
]


def seed(organization, ctx: dict) -> None:
    clubs = ctx.get("clubs") or []
    for reference, description, amount, days_ago, refunds in OUTSIDE_REVENUE:
        record = Transaction.objects.filter(
            organization=organization, type=TransactionType.EXTERNAL_REVENUE, reference=reference
        ).first()
        if record is not None:
            continue
        record = services.record_external_revenue(
            organization,
            {
                "amount": amount,
                "description": description,
                "reference": reference,
                "payment_method": "cash",
                "club": clubs[0] if clubs else None,
                "occurred_at": timezone.now() - dt.timedelta(days=days_ago),
            },
        )
        for refund_amount, reason in refunds:
            services.refund_external_revenue(organization, record, {"amount": refund_amount, "reason": reason})
