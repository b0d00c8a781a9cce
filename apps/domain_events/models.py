from django.db import models


class DomainEvent(models.Model):
    """Something that happened to an organization's data; the webhooks fan-out reads these."""

    id = models.CharField(primary_key=True, max_length=40)  # evt_<ulid-like>
    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE)
    type = models.CharField(max_length=60)
    data = models.JSONField()
    changed_fields = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["created_at"]
        indexes = [models.Index(fields=["organization", "type", "created_at"])]
