from django.conf import settings
from django.db import models

from apps.api.validators import validate_https_url
from apps.classes.choices import Visibility

from .choices import ContentItemStatus, ContentItemType, MediaType


class ContentItem(models.Model):
    """A post, FAQ, document, reusable block or how-to guide of an organization's content."""

    organization = models.ForeignKey(
        "organizations.Organization", on_delete=models.CASCADE, related_name="content_items"
    )
    type = models.CharField(max_length=20, choices=ContentItemType.choices)
    title = models.CharField(max_length=200)
    # Unique per (organization, type); derived from the title when not given.
    slug = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=20, choices=ContentItemStatus.choices, default=ContentItemStatus.DRAFT)
    visibility = models.CharField(max_length=12, choices=Visibility.choices, default=Visibility.PUBLIC)
    # `content` of the API: sanitized HTML and/or a block-editor document; `summary` and `keywords` are shared by
    # `content.summary`/`content.keywords` and the top-level `summary`/`keywords` (one stored value each).
    html = models.TextField(null=True, blank=True)
    blocks = models.JSONField(null=True, blank=True)
    summary = models.TextField(null=True, blank=True)
    keywords = models.JSONField(default=list, blank=True)
    excerpt = models.TextField(null=True, blank=True)
    meta_title = models.CharField(max_length=200, null=True, blank=True)
    meta_description = models.CharField(max_length=500, null=True, blank=True)
    meta_keywords = models.CharField(max_length=500, null=True, blank=True)
    canonical_url = models.CharField(max_length=2048, null=True, blank=True)
    template = models.CharField(max_length=100, null=True, blank=True)
    layout = models.CharField(max_length=100, null=True, blank=True)
    custom_fields = models.JSONField(null=True, blank=True)
    tags = models.JSONField(default=list, blank=True)
    images = models.JSONField(default=list, blank=True)
    featured = models.BooleanField(null=True, blank=True)
    # A staff member of the organization (a dashboard user); kept null when the user is deleted.
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="content_items"
    )
    # Set on the first publish and kept through later unpublishing and republishing.
    published_at = models.DateTimeField(null=True, blank=True)
    language = models.CharField(max_length=35, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["organization", "type", "slug"], name="content_item_slug_unique_per_organization_and_type"
            ),
        ]
        indexes = [models.Index(fields=["organization", "status", "-published_at"], name="content_item_published")]

    def __str__(self):
        return self.title


class MediaItem(models.Model):
    """A file of the media library, hosted elsewhere and registered by its public `https` URL."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE, related_name="media")
    url = models.CharField(max_length=2048, validators=[validate_https_url])  # immutable: a new file is a new item
    name = models.CharField(max_length=255)
    alt_text = models.TextField(null=True, blank=True)
    caption = models.TextField(null=True, blank=True)
    media_type = models.CharField(max_length=10, choices=MediaType.choices)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "media item"

    def __str__(self):
        return self.name
