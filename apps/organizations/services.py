"""Organization and API key operations shared by the admin and the management commands.

Rule violations raise Django's `ValidationError` (with a `code`): the admin shows it as a form error and the
commands turn it into a `CommandError`.
"""

import datetime
import re
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from apps.api.exceptions import ValidationFailed
from apps.api.scopes import ACTION_LABELS, RESOURCE_ACTIONS, WILDCARD, is_known_scope, ordered
from apps.api.validators import is_language_code
from apps.kernel import clock, money
from apps.kernel.records import set_fields

from .choices import Plan
from .models import ApiKey, Organization, check_organization_active

PLAN_LOCKED_MESSAGE = (
    "API keys are not available on the {plan} plan. Upgrade the organization to a paid plan to create keys."
)


def check_can_issue_keys(organization) -> None:
    """Inactive organizations, and those on the free plan or in trial, have no API access, so they get no keys."""
    check_organization_active(organization)
    if organization.api_locked:
        raise ValidationError(
            PLAN_LOCKED_MESSAGE.format(plan=Plan(organization.plan).label), code="plan_feature_locked"
        )


def normalize_scopes(scopes) -> list[str]:
    """Validated scopes in registry order; `*` alone when full access is among them."""
    scopes = [s.strip() for s in scopes or () if s and s.strip()]
    if not scopes:
        raise ValidationError("Choose at least one scope, or full access.", code="no_scopes")
    unknown = [s for s in scopes if not is_known_scope(s)]
    if unknown:
        raise ValidationError(
            "Unknown scope(s): %(unknown)s.", code="unknown_scope", params={"unknown": ", ".join(unknown)}
        )
    if WILDCARD in scopes:
        return [WILDCARD]
    return ordered(dict.fromkeys(scopes))


def expiry_for_date(organization, expires_on: datetime.date | None) -> datetime.datetime | None:
    """The key stays valid through the whole chosen day on the organization's clock; None means no expiry."""
    if expires_on is None:
        return None
    if expires_on < clock.today(organization):
        raise ValidationError("The expiry date cannot be in the past.", code="expiry_in_past")
    return datetime.datetime.combine(expires_on, datetime.time.max, tzinfo=clock.zone_of(organization))


def issue_api_key(
    organization, *, name, scopes, description="", expires_on=None, created_by=None
) -> tuple[ApiKey, str]:
    """Create a key and return `(key, token)`. The token is never stored and cannot be recovered later."""
    check_can_issue_keys(organization)
    name = (name or "").strip()
    if not name:
        raise ValidationError("A key needs a name.", code="required")
    return ApiKey.issue(
        organization=organization,
        name=name,
        description=description or "",
        scopes=normalize_scopes(scopes),
        expires_at=expiry_for_date(organization, expires_on),
        created_by=created_by,
    )


def revoke_api_keys(keys) -> int:
    """Revoke every key of `keys` (a queryset) that is not revoked yet; returns how many were revoked."""
    return keys.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())


def scope_choices_by_resource() -> list[tuple[str, list[tuple[str, str]]]]:
    """`[(resource, [(scope, label), ...]), ...]` in registry order, for per-resource pickers."""
    return [
        (resource, [(f"{resource}:{action}", ACTION_LABELS.get(action, action.title())) for action in actions])
        for resource, actions in RESOURCE_ACTIONS.items()
    ]


# --- organization settings (used by create_organization) ---

CURRENCY_RE = re.compile(r"^[A-Z]{3}$")


def validate_currency(value: str) -> str:
    if not CURRENCY_RE.fullmatch(value or ""):
        raise ValidationError(f"Invalid currency {value!r}: use a 3-letter ISO 4217 code such as EUR.")
    return value


def validate_language(value: str) -> str:
    if not is_language_code(value):
        raise ValidationError(f"Invalid language {value!r}: use a language code such as en or es.")
    return value


def validate_timezone(value: str) -> str:
    if not clock.is_zone_name(value):
        raise ValidationError(f"Unknown time zone {value!r}: use an IANA name such as Europe/Madrid.")
    return value


def validate_tax_rate(value) -> Decimal:
    try:
        rate = Decimal(str(value))
    except (InvalidOperation, ValueError):
        raise ValidationError(f"Invalid tax rate {value!r}: use a number from 0 to 100.")
    if not rate.is_finite() or rate < 0 or rate > 100:
        raise ValidationError(f"Invalid tax rate {value!r}: use a number from 0 to 100.")
    return money.round_rate(rate)


@transaction.atomic
def upsert_organization(slug: str, **fields) -> tuple[Organization, bool]:
    """Create the organization or update only the given fields of an existing one; returns `(org, created)`."""
    fields = {k: v for k, v in fields.items() if v is not None}
    organization = Organization.objects.select_for_update().filter(slug=slug).first()
    created = organization is None
    if created:
        if not fields.get("name"):
            raise ValidationError("A new organization needs a name.")
        organization = Organization(slug=slug)
    set_fields(organization, fields)
    organization.full_clean()
    organization.save()
    return organization, created


# --- organization settings through the Platform API ---

DEFAULT_BOOKING_CARD_NAMES = {"area": "Area", "class": "Class", "instructor": "Instructor", "event": "Event"}
BOOKING_CARD_KEYS = tuple(DEFAULT_BOOKING_CARD_NAMES)
BOOKING_CARD_NAME_MAX = 60


def booking_card_names(organization) -> dict:
    """All four display names: the stored ones, the defaults for the rest."""
    stored = organization.booking_card_names if isinstance(organization.booking_card_names, dict) else {}
    return {key: stored.get(key) or DEFAULT_BOOKING_CARD_NAMES[key] for key in BOOKING_CARD_KEYS}


def offered_languages(organization) -> list[str]:
    """The offered languages as stored; the default language is put first if an older row lacks it."""
    stored = organization.offered_languages if isinstance(organization.offered_languages, list) else []
    if organization.default_language in stored:
        return list(stored)
    return organization.languages


def update_settings(organization, changes: dict) -> Organization:
    """Apply validated `changes` (`offered_languages`, `booking_card_names`) under a row lock; returns the fresh row.

    Raises `ValidationFailed` when the offered languages leave out the (read-only) default language.
    """
    with transaction.atomic():
        locked = Organization.objects.select_for_update().get(pk=organization.pk)
        fields = []
        if "offered_languages" in changes:
            languages = list(dict.fromkeys(changes["offered_languages"]))
            if locked.default_language not in languages:
                raise ValidationFailed(
                    {"offeredLanguages": [f"Must include the default language `{locked.default_language}`."]}
                )
            locked.offered_languages = languages
            fields.append("offered_languages")
        if "booking_card_names" in changes:
            locked.booking_card_names = dict(changes["booking_card_names"])
            fields.append("booking_card_names")
        if fields:
            locked.save(update_fields=[*fields, "updated_at"])
    return locked


# --- revoking signed links (apps/api/signed_tokens.py: the epoch claim) ---


def revoke_signed_links(organizations) -> int:
    """Every invoice PDF link and website preview link of `organizations` (a queryset) stops working at once: their
    tokens carry the previous `link_epoch`. New reads hand out fresh links. Returns how many organizations."""
    return organizations.update(link_epoch=F("link_epoch") + 1)


def revoke_calendar_feeds(organizations) -> int:
    """Every instructor calendar feed URL of `organizations` stops working at once (the instructors' next
    `GET .../calendar-feed` returns a new URL to subscribe to). Returns how many organizations."""
    return organizations.update(calendar_feed_epoch=F("calendar_feed_epoch") + 1)
