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
