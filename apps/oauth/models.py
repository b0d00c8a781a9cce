"""OAuth 2.1 clients, authorization codes, grants and tokens (django-oauth-toolkit's models, swapped in).

Every token belongs to one `Grant`: the user's consent for one client in one organization. The grant is what a
credential is (`Credential.kind == "oauth"`, keyed `oauth:<grant id>` for rate limits and idempotency), what staff
revoke in the admin, and what a reused refresh token revokes as a whole. Access and refresh tokens are stored as
SHA-256 checksums only (django-oauth-toolkit's RFC 9700 token storage): the `token` column stays empty.
"""

from django.conf import settings
from django.db import models, transaction
from django.utils import timezone
from oauth2_provider.models import (
    AbstractAccessToken,
    AbstractApplication,
    AbstractGrant,
    AbstractIDToken,
    AbstractRefreshToken,
    ApplicationManager,
)

from .redirects import allowed_schemes


class ApplicationType(models.TextChoices):
    WEB = "web", "Web"
    NATIVE = "native", "Native"


class Client(AbstractApplication):
    """A registered OAuth client: dynamically (RFC 7591), by a metadata document URL, or by staff."""

    application_type = models.CharField(max_length=10, choices=ApplicationType.choices, default=ApplicationType.WEB)
    token_endpoint_auth_method = models.CharField(max_length=30, default="none")
    # The scope the client registered with (informational: consent decides what a grant holds).
    registered_scope = models.TextField(blank=True, default="")

    objects = ApplicationManager()

    class Meta(AbstractApplication.Meta):
        swappable = "OAUTH2_PROVIDER_APPLICATION_MODEL"
        verbose_name = "OAuth client"

    def get_allowed_schemes(self):
        """Web clients redirect to https (or loopback http); native ones also to their own custom scheme."""
        return allowed_schemes(self)


class AuthorizationCode(AbstractGrant):
    """An authorization code (single use, 10 minutes), carrying the organization the user picked on consent."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE, null=True)
    # Set when the code is exchanged: presenting it again revokes the grant it produced (RFC 6749 §4.1.2).
    grant = models.ForeignKey("oauth.Grant", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")

    class Meta(AbstractGrant.Meta):
        swappable = "OAUTH2_PROVIDER_GRANT_MODEL"
        verbose_name = "OAuth authorization code"


class GrantQuerySet(models.QuerySet):
    def active(self):
        return self.filter(revoked_at__isnull=True)


class Grant(models.Model):
    """One consent: a user let one client act in one organization with these scopes, for this resource."""

    organization = models.ForeignKey(
        "organizations.Organization", on_delete=models.CASCADE, related_name="oauth_grants"
    )
    client = models.ForeignKey(Client, on_delete=models.CASCADE, related_name="grants")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="oauth_grants")
    scope = models.TextField(blank=True, default="")
    resource = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(null=True, blank=True, editable=False)
    # Why it was revoked: by staff, by the client, or because a used refresh token came back.
    revoked_reason = models.CharField(max_length=40, blank=True, default="", editable=False)

    objects = GrantQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "OAuth grant"

    def __str__(self):
        return f"{self.client} @ {self.organization_id} (grant #{self.pk})"

    @property
    def scopes(self) -> list[str]:
        return self.scope.split()

    @property
    def is_revoked(self) -> bool:
        return self.revoked_at is not None

    def revoke(self, reason: str = "revoked"):
        """Revoke the grant and every token of it; the next request with any of them is a 401."""
        with transaction.atomic():
            now = timezone.now()
            updated = Grant.objects.filter(pk=self.pk, revoked_at__isnull=True).update(
                revoked_at=now, revoked_reason=reason[:40]
            )
            if updated:
                self.revoked_at, self.revoked_reason = now, reason[:40]
            RefreshToken.objects.filter(grant_id=self.pk, revoked__isnull=True).update(revoked=now, updated=now)
            AccessToken.objects.filter(grant_id=self.pk).delete()


class AccessToken(AbstractAccessToken):
    """An access token (1 hour), stored as its SHA-256 checksum only."""

    grant = models.ForeignKey(Grant, on_delete=models.CASCADE, null=True, blank=True, related_name="access_tokens")

    class Meta(AbstractAccessToken.Meta):
        swappable = "OAUTH2_PROVIDER_ACCESS_TOKEN_MODEL"
        verbose_name = "OAuth access token"


class RefreshToken(AbstractRefreshToken):
    """A refresh token (30 days, rotated on every use), stored as its SHA-256 checksum only."""

    grant = models.ForeignKey(Grant, on_delete=models.CASCADE, null=True, blank=True, related_name="refresh_tokens")

    class Meta(AbstractRefreshToken.Meta):
        swappable = "OAUTH2_PROVIDER_REFRESH_TOKEN_MODEL"
        verbose_name = "OAuth refresh token"


class IDToken(AbstractIDToken):
    """Unused (no OpenID Connect); swapped in because the access token refers to it."""

    class Meta(AbstractIDToken.Meta):
        swappable = "OAUTH2_PROVIDER_ID_TOKEN_MODEL"
