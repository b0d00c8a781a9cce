from django.db import models

from .choices import DeliveryStatus, DisabledReason


class WebhookSubscription(models.Model):
    """An organization's receiver of events: where, which types, under which scopes, signed with which secret."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE, related_name="webhooks")
    url = models.CharField(max_length=2048)
    description = models.CharField(max_length=500, blank=True, default="")
    events = models.JSONField(default=list, help_text='Event types, or ["*"] for every type the scopes allow.')
    # The effective scopes of the credential that created the subscription (or last changed its events): they
    # decide which types are sent and how payloads are rendered (contact e-mails need contacts:read).
    scopes = models.JSONField(default=list)
    is_active = models.BooleanField(default=True)
    disabled_reason = models.CharField(max_length=20, choices=DisabledReason.choices, null=True, blank=True)
    # whsec_<base64>: the HMAC key must be readable to sign, so it is stored as is (see docs/security.md).
    secret = models.CharField(max_length=100)
    previous_secret = models.CharField(max_length=100, blank=True, default="")
    previous_secret_expires_at = models.DateTimeField(null=True, blank=True)
    # Start of the current run of failed attempts (cleared by any success); 72 hours of it disables.
    failing_since = models.DateTimeField(null=True, blank=True)
    failure_warned_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["organization", "is_active"])]

    def __str__(self):
        return self.url


class WebhookDelivery(models.Model):
    """One event owed to one subscription: its attempts, their outcome, and when the next one is due."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE, related_name="+")
    subscription = models.ForeignKey(WebhookSubscription, on_delete=models.CASCADE, related_name="deliveries")
    event = models.ForeignKey("domain_events.DomainEvent", on_delete=models.CASCADE, related_name="+")
    event_type = models.CharField(max_length=60)
    status = models.CharField(max_length=20, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    response_status = models.PositiveSmallIntegerField(null=True, blank=True)
    response_body = models.TextField(blank=True, default="")
    duration_ms = models.PositiveIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True, default="")
    # Queued by a replay: sent in event order by the replay task, not by the per-delivery task.
    replay = models.BooleanField(default=False)
    # A worker holds the delivery until then (at least once: a worker killed mid-attempt lets it expire).
    lease_until = models.DateTimeField(null=True, blank=True)
    # When the beat sweep (re-)queues a still-pending, unleased delivery, should its task have been lost.
    sweep_after = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "webhook deliveries"
        indexes = [
            models.Index(fields=["subscription", "-created_at"]),
            models.Index(
                fields=["sweep_after"],
                name="webhook_delivery_sweep",
                condition=models.Q(status=DeliveryStatus.PENDING),
            ),
        ]

    def __str__(self):
        return f"{self.event_type} -> {self.subscription_id} ({self.status})"


class FeedCounter(models.Model):
    """The last feed sequence number given to an organization's events; its row lock orders the relays."""

    organization = models.OneToOneField(
        "organizations.Organization", on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    last_sequence = models.BigIntegerField(default=0)
