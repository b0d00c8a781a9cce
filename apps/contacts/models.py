from django.db import models
from django.db.models import TextField, Value
from django.db.models.functions import Concat

from .choices import ContactStatus

# What the contacts search (`q`) matches a term in: the full name, the e-mail and the phone. The unit separator
# between them is no character a search term holds, so no match spans two of them.
SEARCH_TEXT = Concat(
    "first_name", Value(" "), "last_name", Value("\x1f"), "email", Value("\x1f"), "phone", output_field=TextField()
)


class PipelineStage(models.Model):
    """A sales pipeline stage a contact can be in."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE)
    name = models.CharField(max_length=120)
    position = models.IntegerField(default=0)
    color = models.CharField(max_length=7, null=True, blank=True)
    is_default = models.BooleanField(default=False)

    class Meta:
        ordering = ["position", "id"]

    def __str__(self):
        return self.name


class ContactSource(models.Model):
    """Where a contact came from (walk-in, website, referral)."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE)
    name = models.CharField(max_length=120)
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return self.name


class Contact(models.Model):
    """A person known to the organization: customer, member, lead, instructor."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE, related_name="contacts")
    first_name = models.CharField(max_length=120)
    last_name = models.CharField(max_length=120, null=True, blank=True)
    email = models.EmailField(null=True, blank=True)
    phone = models.CharField(max_length=40, null=True, blank=True)
    date_of_birth = models.DateField(null=True, blank=True)
    language = models.CharField(max_length=10, null=True, blank=True)
    profile_image = models.URLField(max_length=500, null=True, blank=True)
    status = models.CharField(max_length=20, choices=ContactStatus.choices, default=ContactStatus.ACTIVE)
    pipeline_stage = models.ForeignKey(PipelineStage, null=True, blank=True, on_delete=models.SET_NULL)
    source = models.ForeignKey(ContactSource, null=True, blank=True, on_delete=models.SET_NULL)
    tags = models.JSONField(default=list, blank=True)
    notes = models.TextField(null=True, blank=True)
    marketing_consent = models.BooleanField(default=False)
    custom_fields = models.JSONField(default=dict, blank=True)
    archived_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["organization", "email"]),
            models.Index(fields=["organization", "status"]),
            # The default order (`-createdAt`) of a large organization's list without sorting every contact.
            models.Index(fields=["organization", "created_at", "id"], name="contact_org_created"),
            # And `contact_search_trgm`, a trigram index on UPPER(SEARCH_TEXT) for `q`, created by migration 0003
            # on PostgreSQL only.
        ]

    def __str__(self):
        return self.name

    @property
    def name(self) -> str:
        return display_name(self.first_name, self.last_name)


def display_name(first_name: str | None, last_name: str | None) -> str:
    """A contact's name as every body shows it: first and last name joined ("" when both are empty)."""
    return " ".join(part for part in (first_name, last_name) if part)
