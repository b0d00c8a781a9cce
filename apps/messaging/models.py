"""E-mail and SMS templates and message drafts. Messages are prepared through the API and sent only from the admin."""

from django.db import models

from .choices import MessageChannel, MessageStatus


class MessageTemplate(models.Model):
    """Reusable e-mail or SMS text with `{{ variable }}` placeholders (Django template syntax, sandboxed)."""

    organization = models.ForeignKey(
        "organizations.Organization", on_delete=models.CASCADE, related_name="message_templates"
    )
    name = models.CharField(max_length=120)
    channel = models.CharField(max_length=10, choices=MessageChannel.choices)
    subject = models.CharField(max_length=255, null=True, blank=True)  # e-mail only
    body = models.TextField()
    # The names the body and subject read, detected when they are written (never written by clients).
    variables = models.JSONField(default=list, blank=True)
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return self.name


class Message(models.Model):
    """An e-mail or SMS to some of the organization's contacts: a draft until a staff user sends it (admin)."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE, related_name="messages")
    channel = models.CharField(max_length=10, choices=MessageChannel.choices)
    subject = models.CharField(max_length=255, null=True, blank=True)  # e-mail only
    body = models.TextField()
    template = models.ForeignKey(
        MessageTemplate, null=True, blank=True, on_delete=models.SET_NULL, related_name="messages"
    )
    contacts = models.ManyToManyField("contacts.Contact", blank=True, related_name="messages")
    status = models.CharField(max_length=12, choices=MessageStatus.choices, default=MessageStatus.DRAFT)
    # Delivery counts, fixed when the message is sent (a draft's recipients are its contacts).
    recipients_count = models.PositiveIntegerField(default=0)
    sent_count = models.PositiveIntegerField(default=0)
    delivered_count = models.PositiveIntegerField(default=0)
    failed_count = models.PositiveIntegerField(default=0)
    opened_count = models.PositiveIntegerField(default=0)
    sent_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["organization", "status"])]
        permissions = [("send_message", "Can send draft messages")]

    def __str__(self):
        label = self.subject or self.body
        return f"{self.get_channel_display()}: {label[:60]}"
