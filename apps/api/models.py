from django.db import models


class IdempotencyRecord(models.Model):
    """One `Idempotency-Key` use: kept 24 h, replayed for the same request, refused for a different one."""

    IN_PROGRESS = "in_progress"
    COMPLETED = "completed"

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE)
    # The credential that used the key (`Credential.key`): keys are per credential, as Stripe's are per API key.
    credential_key = models.CharField(max_length=100)
    key = models.CharField(max_length=255)
    method = models.CharField(max_length=10)
    path = models.CharField(max_length=2000)
    body_hash = models.CharField(max_length=64)
    state = models.CharField(max_length=20, default=IN_PROGRESS)
    response_status = models.PositiveSmallIntegerField(null=True)
    response_body = models.JSONField(null=True)
    response_headers = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["credential_key", "key"], name="uniq_idempotency_credential_key")
        ]
