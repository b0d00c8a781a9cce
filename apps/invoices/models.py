from django.db import models

from .choices import InvoiceStatus


class InvoiceSequence(models.Model):
    """The last invoice number of an organization. Locked while an invoice is issued, so numbers are gapless: a
    rolled-back issue rolls its number back too."""

    organization = models.OneToOneField(
        "organizations.Organization", on_delete=models.CASCADE, primary_key=True, related_name="invoice_sequence"
    )
    last_number = models.PositiveIntegerField(default=0)


class Invoice(models.Model):
    """A bill the service issues for what was sold (a membership period, a sign-up fee, a ticket). Money is copied
    from its transactions at the organization's currency precision; `total` = `subtotal` + `tax`."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE, related_name="invoices")
    sequence = models.PositiveIntegerField()
    number = models.CharField(max_length=40)
    status = models.CharField(max_length=15, choices=InvoiceStatus.choices, default=InvoiceStatus.OPEN)
    contact = models.ForeignKey("contacts.Contact", null=True, blank=True, on_delete=models.SET_NULL)
    club = models.ForeignKey("clubs.Club", null=True, blank=True, on_delete=models.SET_NULL)
    currency = models.CharField(max_length=3)
    issue_date = models.DateField()
    due_date = models.DateField()
    subtotal = models.DecimalField(max_digits=13, decimal_places=3, default=0)
    tax = models.DecimalField(max_digits=13, decimal_places=3, default=0)
    total = models.DecimalField(max_digits=13, decimal_places=3, default=0)
    amount_paid = models.DecimalField(max_digits=13, decimal_places=3, default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-issue_date", "-sequence"]
        constraints = [
            models.UniqueConstraint(fields=["organization", "sequence"], name="invoice_number_unique_per_org"),
        ]
        indexes = [models.Index(fields=["organization", "-issue_date", "-sequence"], name="invoice_org_issue")]

    def __str__(self):
        return self.number

    @property
    def amount_due(self):
        return max(self.total - self.amount_paid, 0)


class InvoiceLine(models.Model):
    """One line of an invoice: usually one transaction (`unit_price` and `amount` before tax)."""

    invoice = models.ForeignKey(Invoice, on_delete=models.CASCADE, related_name="lines")
    position = models.PositiveIntegerField(default=0)
    description = models.CharField(max_length=500)
    quantity = models.PositiveIntegerField(default=1)
    unit_price = models.DecimalField(max_digits=13, decimal_places=3)
    amount = models.DecimalField(max_digits=13, decimal_places=3)
    tax = models.DecimalField(max_digits=13, decimal_places=3, default=0)
    transaction = models.ForeignKey(
        "transactions.Transaction", null=True, blank=True, on_delete=models.SET_NULL, related_name="invoice_lines"
    )

    class Meta:
        ordering = ["invoice", "position", "id"]
