from django.db import models


class MembershipPeriod(models.Model):
    """One billed period of a membership with its charge (and, on the first, the sign-up fee).

    The unique (membership, start date) pair is what makes a renewal happen once: a second run, or a second
    worker, that tries to bill the same period again fails on it and creates nothing."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE)
    membership = models.ForeignKey("billing.Membership", on_delete=models.CASCADE, related_name="periods")
    start_date = models.DateField()
    end_date = models.DateField(null=True, blank=True)
    charge = models.OneToOneField(
        "transactions.Transaction", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    signup_fee = models.OneToOneField(
        "transactions.Transaction", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["membership_id", "start_date"]
        constraints = [
            models.UniqueConstraint(fields=["membership", "start_date"], name="membership_period_once_per_start")
        ]

    def __str__(self):
        return f"{self.start_date} to {self.end_date or 'open'}"
