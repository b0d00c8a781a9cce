"""Enums of content items and the media library (see docs/decisions/enums.md). A content item's `visibility` is the
classes' `Visibility`."""

from django.db import models


class ContentItemType(models.TextChoices):
    FAQ = "faq", "FAQ"
    POST = "post", "Blog post"
    DOCUMENT = "document", "Document"
    BLOCK = "block", "Reusable block"
    HOW_TO_GUIDE = "how-to-guide", "How-to guide"


class ContentItemStatus(models.TextChoices):
    """Only `published` items are visible to a credential without `content:write`."""

    DRAFT = "draft", "Draft (not public)"
    PUBLISHED = "published", "Published content"
    ARCHIVED = "archived", "Archived (not public)"


class MediaType(models.TextChoices):
    IMAGE = "image", "Image"
    VIDEO = "video", "Video"
