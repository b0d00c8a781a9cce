from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower

from .choices import PublisherType
from .domains import new_challenge_token, normalize_domain
from .links import site_url


class Website(models.Model):
    """An organization's website: the draft (pages, layout, styles, SEO settings) and the release the public sees.

    `name` and `club` are live (no publish needed); everything else the public sees comes from `active_release`.
    """

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE, related_name="websites")
    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=63, unique=True, help_text="Host label: the site answers on <slug>.SITE_HOST.")
    domain = models.CharField(
        max_length=253,
        unique=True,
        null=True,
        blank=True,
        help_text="A custom domain (www.example.com), served only once its DNS TXT challenge is verified.",
    )
    # The DNS TXT challenge of `domain` (apps/website/domains.py): a new domain gets a new token and is unverified.
    domain_challenge = models.CharField(max_length=64, blank=True, default="", editable=False)
    domain_verified_at = models.DateTimeField(null=True, blank=True, editable=False)
    is_default = models.BooleanField(default=False)
    is_active = models.BooleanField(default=True)
    club = models.ForeignKey("clubs.Club", null=True, blank=True, on_delete=models.SET_NULL, related_name="websites")
    # The draft besides pages: {"header": Section, "footer": Section}, theme tokens, SEO settings.
    layout = models.JSONField(default=dict, blank=True)
    styles = models.JSONField(default=dict, blank=True)
    seo_settings = models.JSONField(default=dict, blank=True)
    # sha256 of the draft snapshot, kept current by every draft write: compared with the active release's.
    draft_hash = models.CharField(max_length=64, blank=True, default="")
    active_release = models.ForeignKey(
        "website.Release", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-is_default", "id"]
        constraints = [
            models.UniqueConstraint(fields=["organization"], condition=Q(is_default=True), name="website_one_default"),
            # Hosts are case-insensitive: `save()` stores the lower-case form, and this holds for any other write.
            models.UniqueConstraint(Lower("domain"), name="website_domain_unique_ci"),
        ]

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        update_fields = kwargs.get("update_fields")
        if update_fields is None or "domain" in update_fields:
            self.domain = normalize_domain(self.domain)
            previous = None
            if self.pk is not None:
                previous = Website.objects.filter(pk=self.pk).values_list("domain", flat=True).first()
            if self.domain != previous or (self.domain and not self.domain_challenge):
                # A new domain must be proven again; its token is new, so an old record proves nothing.
                self.domain_verified_at = None
                self.domain_challenge = new_challenge_token() if self.domain else ""
                if update_fields is not None:
                    kwargs["update_fields"] = {*update_fields, "domain_verified_at", "domain_challenge"}
        super().save(*args, **kwargs)

    def clean(self):
        super().clean()
        try:
            self.domain = normalize_domain(self.domain)
        except ValidationError as error:
            raise ValidationError({"domain": error.messages}) from None

    @property
    def served_domain(self) -> str | None:
        """The custom domain the site is served on: only once its challenge is verified."""
        return self.domain if self.domain and self.domain_verified_at else None

    @property
    def site_url(self) -> str:
        """The site's address: `https://<verified custom domain>`, else `https://<slug>.SITE_HOST` (no trailing
        slash)."""
        return site_url(self.slug, self.served_domain)


class Page(models.Model):
    """A draft page. Its sections are an ordered list of `{type, htmlId, config, translations}` (one row, so a page
    and its sections are read and replaced together)."""

    website = models.ForeignKey(Website, on_delete=models.CASCADE, related_name="pages")
    slug = models.CharField(max_length=100)
    title = models.CharField(max_length=200)
    is_homepage = models.BooleanField(default=False)
    sections = models.JSONField(default=list, blank=True)
    meta_title = models.CharField(max_length=200, null=True, blank=True)
    meta_description = models.CharField(max_length=500, null=True, blank=True)
    og_image = models.URLField(max_length=2048, null=True, blank=True)
    noindex = models.BooleanField(default=False)
    translations = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-is_homepage", "id"]
        constraints = [
            models.UniqueConstraint(fields=["website", "slug"], name="website_page_slug_unique"),
            models.UniqueConstraint(fields=["website"], condition=Q(is_homepage=True), name="website_one_homepage"),
        ]

    def __str__(self):
        return self.title


class Release(models.Model):
    """An immutable, published snapshot of a website's draft: version n+1 of its publish history."""

    website = models.ForeignKey(Website, on_delete=models.CASCADE, related_name="releases")
    version = models.PositiveIntegerField()
    note = models.CharField(max_length=500, null=True, blank=True)
    snapshot = models.JSONField()
    content_hash = models.CharField(max_length=64)
    published_at = models.DateTimeField()
    published_by_type = models.CharField(max_length=10, choices=PublisherType.choices)
    published_by_name = models.CharField(max_length=200)

    class Meta:
        ordering = ["-version"]
        constraints = [models.UniqueConstraint(fields=["website", "version"], name="website_release_version_unique")]

    def __str__(self):
        return f"{self.website} v{self.version}"
