from django.db import models

from apps.billing.choices import BillingFrequency

from .choices import MembershipPaymentStatus, MembershipStatus


class Membership(models.Model):
    """A contact's subscription to a plan; seats and walk-ins can be drawn from it."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE, related_name="memberships")
    contact = models.ForeignKey("contacts.Contact", on_delete=models.CASCADE, related_name="memberships")
    plan = models.ForeignKey("billing.Plan", on_delete=models.PROTECT, related_name="memberships")
    club = models.ForeignKey("clubs.Club", null=True, blank=True, on_delete=models.SET_NULL)
    status = models.CharField(max_length=12, choices=MembershipStatus.choices, default=MembershipStatus.ACTIVE)
    price = models.DecimalField(max_digits=10, decimal_places=2, default=0)
    signup_fee = models.DecimalField(max_digits=10, decimal_places=2, default=0)
    billing_frequency = models.CharField(
        max_length=20, choices=BillingFrequency.choices, default=BillingFrequency.MONTHLY
    )
    payment_status = models.CharField(
        max_length=10, choices=MembershipPaymentStatus.choices, default=MembershipPaymentStatus.UNPAID
    )
    start_date = models.DateField()
    # The last day covered (inclusive); null: open-ended (a one-time plan without a validity period).
    end_date = models.DateField(null=True, blank=True)
    # The first day of the next period while the membership renews; null when it does not.
    next_billing_date = models.DateField(null=True, blank=True)
    uses_remaining = models.IntegerField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    resume_date = models.DateField(null=True, blank=True)
    # A cancellation requested for the end of the period takes effect on this day (the day after the last covered).
    cancel_at = models.DateField(null=True, blank=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    cancellation_reason = models.TextField(null=True, blank=True)
    source = models.CharField(max_length=20, default="admin")
    notes = models.TextField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        # The table billing created first (moved here without a table change).
        db_table = "billing_membership"
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["contact", "status"])]


class MembershipPeriod(models.Model):
    """One billed period of a membership with its charge (and, on the first, the sign-up fee).

    The unique (membership, start date) pair is what makes a renewal happen once: a second run, or a second
    worker, that tries to bill the same period again fails on it and creates nothing."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE)
    membership = models.ForeignKey(Membership, on_delete=models.CASCADE, related_name="periods")
    start_date = models.DateField()
    end_date = models.DateField(null=True, blank=True)
    charge = models.OneToOneField(
        "transactions.Transaction", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    signup_fee = models.OneToOneField(
        "transactions.Transaction", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # Whether the membership's `uses_remaining` was reset for this period: at once for a period that has started
    # when billed, else by the worker on its first day (a renewal billed in advance does not reset them early).
    uses_granted = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["membership_id", "start_date"]
        constraints = [
            models.UniqueConstraint(fields=["membership", "start_date"], name="membership_period_once_per_start")
        ]

    def __str__(self):
        return f"{self.start_date} to {self.end_date or 'open'}"
