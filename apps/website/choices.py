from django.db import models


class SectionPlacement(models.TextChoices):
    PAGE = "page", "Page"
    HEADER = "header", "Header"
    FOOTER = "footer", "Footer"


class ButtonStyle(models.TextChoices):
    ROUNDED = "rounded", "Rounded"
    PILL = "pill", "Pill"
    SQUARE = "square", "Square"


class NotIndexableReason(models.TextChoices):
    PAGE_NOINDEX = "page_noindex", "Page noindex"
    SITE_UNPUBLISHED = "site_unpublished", "Site unpublished"
    SITE_INACTIVE = "site_inactive", "Site inactive"


class PublisherType(models.TextChoices):
    API_KEY = "api_key", "API key"
    OAUTH = "oauth", "OAuth"
    USER = "user", "User"


class DomainCheck(models.TextChoices):
    """The outcome of a custom domain's DNS TXT challenge check."""

    VERIFIED = "verified"
    RECORD_NOT_FOUND = "record_not_found"
    LOOKUP_FAILED = "lookup_failed"
