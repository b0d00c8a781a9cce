"""Model-level validators for values that end up in public pages (site HTML, sitemap, marketplace profile).

They sit on the model fields, so the admin, management commands and the API share them: a value the API would
refuse cannot come in through another door. Regular expressions use `fullmatch` (`$` would let a trailing newline
through).
"""

import re
from urllib.parse import urlsplit

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator

LANGUAGE_RE = re.compile(r"[a-z]{2,3}(-[A-Za-z0-9]{2,8})*")
MAX_OFFERED_LANGUAGES = 50
MAX_SOCIAL_PROFILES = 20
SOCIAL_NETWORK_RE = re.compile(r"[a-z][a-z0-9_-]{0,31}")

_web_url = URLValidator(schemes=["http", "https"])
_https_url = URLValidator(schemes=["https"])


def is_language_code(value) -> bool:
    return isinstance(value, str) and LANGUAGE_RE.fullmatch(value) is not None


def validate_language_code(value) -> None:
    if not is_language_code(value):
        raise ValidationError(f"Invalid language {value!r}: use a language code such as en, es or pt-BR.")


def validate_language_list(value) -> None:
    """A JSON list of distinct language codes (`Organization.offered_languages`)."""
    if not isinstance(value, list):
        raise ValidationError('A list of language codes, e.g. ["en", "es"].')
    if len(value) > MAX_OFFERED_LANGUAGES:
        raise ValidationError(f"At most {MAX_OFFERED_LANGUAGES} languages.")
    for item in value:
        validate_language_code(item)


def _check_url(value, validator, message: str) -> None:
    if not isinstance(value, str) or value != value.strip() or any(ord(c) < 32 for c in value):
        raise ValidationError(message)
    try:
        validator(value)
    except ValidationError:
        raise ValidationError(message) from None


def validate_web_url(value) -> None:
    """An absolute http or https URL (never `javascript:`, `data:` or a relative path)."""
    _check_url(value, _web_url, f"Invalid link {value!r}: use an http:// or https:// address.")


def validate_https_url(value) -> None:
    """An absolute https URL: media shown on https pages (mixed content is blocked by browsers)."""
    _check_url(value, _https_url, f"Invalid media address {value!r}: use an https:// address.")


def validate_https_url_list(value) -> None:
    if not isinstance(value, list):
        raise ValidationError("A list of https:// addresses.")
    for item in value:
        validate_https_url(item)


def validate_social_profiles(value) -> None:
    """`{network: url}`: network names of lower-case letters, digits, `-` and `_`; http/https URLs only."""
    if not isinstance(value, dict):
        raise ValidationError('An object of network names to links, e.g. {"instagram": "https://instagram.com/x"}.')
    if len(value) > MAX_SOCIAL_PROFILES:
        raise ValidationError(f"At most {MAX_SOCIAL_PROFILES} social profiles.")
    for network, url in value.items():
        if not SOCIAL_NETWORK_RE.fullmatch(network):
            raise ValidationError(f"Invalid network name {network!r}: lower-case letters, digits, - and _.")
        validate_web_url(url)


def is_web_url(value) -> bool:
    """For rendering rows stored before validation: True for an http(s) URL."""
    return isinstance(value, str) and urlsplit(value.strip()).scheme.lower() in ("http", "https")


def web_links(profiles) -> dict[str, str]:
    """The http(s) entries of a stored `{network: url}` (rows saved before validation may hold others)."""
    if not isinstance(profiles, dict):
        return {}
    return {str(network): url for network, url in profiles.items() if is_web_url(url)}
