from django.db import models


class DomainEvent(models.Model):
    """Something that happened to an organization's data; the webhooks fan-out reads these."""

    id = models.CharField(primary_key=True, max_length=40)  # evt_<ulid-like>
    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE)
    type = models.CharField(max_length=60)
    data = models.JSONField()
    changed_fields = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    # Set after the commit by the relay (apps.webhooks), in commit order per organization: the event feed's order
    # and cursor. Null until relayed; the relay's sweep picks up rows a crashed process left null.
    sequence = models.BigIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["created_at"]
        indexes = [
            models.Index(fields=["organization", "type", "created_at"]),
            models.Index(fields=["organization", "sequence"], name="domain_event_org_sequence"),
            models.Index(
                fields=["created_at"], name="domain_event_unrelayed", condition=models.Q(sequence__isnull=True)
            ),
        ]
