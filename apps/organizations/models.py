import hashlib
import hmac
import secrets
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.utils import timezone

from apps.api.validators import validate_language_code, validate_language_list
from apps.kernel import money

from .choices import API_LOCKED_PLANS, OrganizationStatus, Plan, StaffRole


class Organization(models.Model):
    """A gym or sports club business: the tenant every Platform API credential belongs to."""

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=80, unique=True)
    currency = models.CharField(
        max_length=3, default="EUR", validators=[RegexValidator(r"^[A-Z]{3}\Z", "An ISO 4217 code, e.g. EUR.")]
    )
    default_tax_rate = models.DecimalField(
        max_digits=5,
        decimal_places=2,
        default=Decimal("0"),
        validators=[MinValueValidator(Decimal("0")), MaxValueValidator(Decimal("100"))],
        help_text="Percent, applied to tax-inclusive prices.",
    )
    default_language = models.CharField(max_length=10, default="en", validators=[validate_language_code])
    offered_languages = models.JSONField(default=list, blank=True, validators=[validate_language_list])
    timezone = models.CharField(max_length=64, default="UTC")
    plan = models.CharField(max_length=20, choices=Plan.choices, default=Plan.PRO)
    status = models.CharField(max_length=20, choices=OrganizationStatus.choices, default=OrganizationStatus.ACTIVE)
    booking_card_names = models.JSONField(default=dict, blank=True)
    # Signed into every invoice PDF link and website preview link (apps/api/signed_tokens.py): bumping it revokes
    # them all at once (admin action "Revoke PDF and preview links").
    link_epoch = models.PositiveIntegerField(default=0, editable=False)
    # The same for the instructors' private calendar feed URLs (admin action "Revoke calendar feeds").
    calendar_feed_epoch = models.PositiveIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name

    @property
    def api_locked(self) -> bool:
        return self.plan in API_LOCKED_PLANS

    @property
    def is_active(self) -> bool:
        return self.status == OrganizationStatus.ACTIVE

    @property
    def languages(self) -> list[str]:
        langs = [self.default_language]
        langs += [lang for lang in self.offered_languages or [] if lang != self.default_language]
        return langs

    def tax_inclusive(self, amount) -> Decimal | None:
        """What a customer pays for `amount` (before tax): the organization's default tax added, at its currency's
        precision (None stays None)."""
        return money.tax_inclusive(amount, self.default_tax_rate, self.currency)


class StaffMembership(models.Model):
    """A dashboard user's role in one organization."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="staff_memberships")
    organization = models.ForeignKey(Organization, on_delete=models.CASCADE, related_name="staff")
    role = models.CharField(max_length=20, choices=StaffRole.choices, default=StaffRole.STAFF)
    full_settings_management = models.BooleanField(
        default=False, help_text="Grants settings.manage.organization to a non-admin (never to managers)."
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "organization"], name="uniq_staff_membership")]

    def __str__(self):
        return f"{self.user} @ {self.organization} ({self.role})"


def organizations_managed_by(user):
    """Organizations in which `user` holds settings.manage.organization."""
    if not user.is_authenticated:
        return Organization.objects.none()
    memberships = StaffMembership.objects.filter(user=user).filter(
        models.Q(role=StaffRole.ADMIN) | (models.Q(full_settings_management=True) & ~models.Q(role=StaffRole.MANAGER))
    )
    return Organization.objects.filter(id__in=memberships.values("organization_id"))


TOKEN_PREFIX = "gpk"
INACTIVE_ORGANIZATION_MESSAGE = "{name} is inactive. Reactivate the organization before creating API keys."


def check_organization_active(organization) -> None:
    """An inactive organization's keys would only ever answer 403, so none are minted for it."""
    if not organization.is_active:
        raise ValidationError(
            INACTIVE_ORGANIZATION_MESSAGE.format(name=organization.name), code="organization_not_active"
        )


def hash_token(token: str) -> str:
    return hmac.new(settings.API_KEY_PEPPER.encode(), token.encode(), hashlib.sha256).hexdigest()


class ApiKeyQuerySet(models.QuerySet):
    def usable(self):
        now = timezone.now()
        return self.filter(revoked_at__isnull=True).filter(
            models.Q(expires_at__isnull=True) | models.Q(expires_at__gt=now)
        )


class ApiKey(models.Model):
    """A customer API key. Only a keyed hash of the token is stored; the token is shown once."""

    organization = models.ForeignKey(Organization, on_delete=models.CASCADE, related_name="api_keys")
    name = models.CharField(max_length=100)
    description = models.TextField(blank=True, default="")
    scopes = models.JSONField(default=list)
    prefix = models.CharField(max_length=16, unique=True, editable=False)
    token_hash = models.CharField(max_length=64, editable=False)
    expires_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(null=True, blank=True, editable=False)

    objects = ApiKeyQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "API key"

    def __str__(self):
        return f"{self.name} ({TOKEN_PREFIX}_{self.prefix}_…)"

    @classmethod
    def issue(cls, *, organization, name, scopes, description="", expires_at=None, created_by=None):
        """Create a key and return `(key, token)`; the token exists only in this return value."""
        check_organization_active(organization)
        prefix, token = cls.new_token()
        key = cls.objects.create(
            organization=organization,
            name=name,
            description=description,
            scopes=list(scopes),
            prefix=prefix,
            token_hash=hash_token(token),
            expires_at=expires_at,
            created_by=created_by,
        )
        return key, token

    @staticmethod
    def new_token() -> tuple[str, str]:
        """A fresh `(prefix, token)`: the prefix is the public lookup part, the rest is the secret."""
        prefix = secrets.token_hex(6)
        return prefix, f"{TOKEN_PREFIX}_{prefix}_{secrets.token_urlsafe(32)}"

    @staticmethod
    def split_token(token: str) -> str | None:
        """The lookup prefix of a well-formed token, else None."""
        parts = token.split("_", 2)
        if len(parts) != 3 or parts[0] != TOKEN_PREFIX or len(parts[1]) != 12:
            return None
        return parts[1]

    def matches(self, token: str) -> bool:
        return hmac.compare_digest(self.token_hash, hash_token(token))

    @property
    def is_revoked(self) -> bool:
        return self.revoked_at is not None

    def is_expired(self, now=None) -> bool:
        return self.expires_at is not None and self.expires_at <= (now or timezone.now())
