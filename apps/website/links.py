"""Public addresses of a website: its site URL (custom domain, else `<slug>.SITE_HOST`), page URLs with the locale
prefix, and the signed, expiring preview link that opens the draft without a sign-in (revoked with every other
signed link of the organization when its `link_epoch` is bumped)."""

from django.conf import settings

from apps.api.signed_tokens import ExpiringToken

PREVIEW_MAX_AGE_SECONDS = 24 * 3600
_PREVIEW_TOKENS = ExpiringToken("apps.website.preview", PREVIEW_MAX_AGE_SECONDS)


def site_url(slug: str, domain: str | None) -> str:
    host = domain or f"{slug}.{settings.SITE_HOST}"
    return f"{settings.SITE_SCHEME}://{host}"


def page_path(page_slug: str, is_homepage: bool, locale: str | None = None, default_language: str | None = None) -> str:
    """`/` for the homepage whatever its slug, `/<slug>` otherwise; prefixed `/<locale>` for a non-default locale
    (`/es/`, `/es/about`)."""
    path = "/" if is_homepage else f"/{page_slug}"
    if locale and locale != default_language:
        path = f"/{locale}{path}"
    return path


def preview_url(website_id: int, slug: str, domain: str | None, link_epoch: int) -> str:
    return f"{site_url(slug, domain)}/_preview/{_PREVIEW_TOKENS.make(str(website_id), link_epoch)}/"


def read_preview_token(token: str) -> tuple[int, int] | None:
    """(website id, organization link epoch) of a valid, unexpired preview token; None otherwise."""
    claims = _PREVIEW_TOKENS.read(token)
    if claims is None or not claims.value.isdigit():
        return None
    return int(claims.value), claims.epoch
