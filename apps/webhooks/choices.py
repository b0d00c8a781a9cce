from django.db import models


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    SUCCEEDED = "succeeded", "Succeeded"
    FAILED = "failed", "Failed"


class DisabledReason(models.TextChoices):
    GONE = "gone", "Gone (the receiver answered 410)"
    FAILING = "failing", "Failing (every delivery failed for 72 hours)"
