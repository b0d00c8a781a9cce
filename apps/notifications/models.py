from django.db import models


class Notification(models.Model):
    """An in-app notification shown to one contact."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE)
    contact = models.ForeignKey("contacts.Contact", on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=60)
    title = models.CharField(max_length=200)
    body = models.TextField(blank=True, default="")
    data = models.JSONField(default=dict, blank=True)
    read_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]


class NotificationDelivery(models.Model):
    """What a queued notification already delivered: one row per (notification id, contact, channel).

    `deliver_notification` writes the row in the same transaction as the send (in-app: the Notification row), so a
    retry of the task after a ConnectionError only sends what is missing.
    """

    key = models.CharField(max_length=120, unique=True)  # "<notification id>:<contact id>:<channel>"
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return self.key
