from django.db import models

from .choices import TransactionPaymentStatus, TransactionSourceType, TransactionType


class Transaction(models.Model):
    """What a payer owes for one thing (a "charge" in the admin apps), revenue collected outside the service, or a
    refund of it. Money is stored at the organization's currency precision (3 decimal places hold KWD)."""

    organization = models.ForeignKey(
        "organizations.Organization", on_delete=models.CASCADE, related_name="transactions"
    )
    type = models.CharField(max_length=20, choices=TransactionType.choices)
    source_type = models.CharField(max_length=12, choices=TransactionSourceType.choices)
    description = models.CharField(max_length=500)
    contact = models.ForeignKey("contacts.Contact", null=True, blank=True, on_delete=models.SET_NULL)
    club = models.ForeignKey("clubs.Club", null=True, blank=True, on_delete=models.SET_NULL)
    booking = models.ForeignKey("bookings.Booking", null=True, blank=True, on_delete=models.SET_NULL)
    membership = models.ForeignKey("memberships.Membership", null=True, blank=True, on_delete=models.SET_NULL)
    product = models.ForeignKey("products.Product", null=True, blank=True, on_delete=models.SET_NULL)
    revenue_account = models.ForeignKey("billing.RevenueAccount", null=True, blank=True, on_delete=models.PROTECT)
    # The invoice listing this transaction (set when `apps.invoices` issues one).
    invoice = models.ForeignKey(
        "invoices.Invoice", null=True, blank=True, on_delete=models.SET_NULL, related_name="transactions"
    )
    refund_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="refunds")
    amount = models.DecimalField(max_digits=13, decimal_places=3)
    tax_amount = models.DecimalField(max_digits=13, decimal_places=3, default=0)
    paid_amount = models.DecimalField(max_digits=13, decimal_places=3, default=0)
    refunded_amount = models.DecimalField(max_digits=13, decimal_places=3, default=0)
    payment_status = models.CharField(
        max_length=20, choices=TransactionPaymentStatus.choices, default=TransactionPaymentStatus.UNPAID
    )
    payment_method = models.CharField(max_length=40, null=True, blank=True)
    reference = models.CharField(max_length=120, null=True, blank=True)
    occurred_at = models.DateTimeField()
    paid_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["organization", "-created_at"], name="transaction_org_created"),
            # The revenue report and analytics select a period of one organization on occurred_at.
            models.Index(fields=["organization", "occurred_at"], name="transaction_org_occurred"),
        ]
        constraints = [
            models.CheckConstraint(condition=models.Q(amount__gte=0), name="transaction_amount_not_negative"),
            # Outside revenue's refunds stay within its amount (the refund service checks under a row lock); a
            # booking's charge mirrors the partner's reported totals as they are.
            models.CheckConstraint(
                condition=models.Q(paid_amount__gte=0, refunded_amount__gte=0),
                name="transaction_paid_and_refunded_not_negative",
            ),
        ]

    def __str__(self):
        return f"{self.get_type_display()} #{self.pk}: {self.description}"


class RevenueSum(models.Model):
    """Sums of the transactions the revenue report counts (every one but `void`) per organization, club, revenue
    account, type and UTC hour, and again per UTC day (docs/decisions/scale.md). PostgreSQL keeps them in the
    transaction that writes a transaction row (statement triggers, migrations 0005-0007), whatever wrote it
    (the ORM, `update()`, a deleted club's `SET NULL`, SQL), so they are always exact. A key may have several rows:
    a writer adds to a row no other open transaction holds and appends one otherwise, so concurrent sales never
    wait on each other; the report sums them. Plain ids, no foreign keys: deleting an organization or a club moves
    or removes its transactions, and the trigger takes their sums back (a row that falls back to zero is deleted)."""

    organization_id = models.BigIntegerField()
    club_id = models.BigIntegerField(null=True)
    revenue_account_id = models.BigIntegerField(null=True)
    type = models.CharField(max_length=20, choices=TransactionType.choices)
    start = models.DateTimeField()  # the first instant of the UTC hour or day
    hours = models.PositiveSmallIntegerField()  # 1 (an hour) or 24 (a UTC day)
    count = models.IntegerField()
    amount = models.DecimalField(max_digits=20, decimal_places=3)
    tax_amount = models.DecimalField(max_digits=20, decimal_places=3)
    refunded_amount = models.DecimalField(max_digits=20, decimal_places=3)

    class Meta:
        indexes = [models.Index(fields=["organization_id", "hours", "start"], name="revenue_sum_org_hours_start")]

    def __str__(self):
        return f"{self.type} of organization {self.organization_id}, {self.hours} h from {self.start:%Y-%m-%d %H:00}Z"
