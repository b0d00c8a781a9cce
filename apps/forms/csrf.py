"""CSRF protection of the public form pages: a signed token bound to a cookie, plus the `Origin` check.

Django's `CsrfViewMiddleware`/`csrf_protect` cannot be used here: site hosts are answered by the website
middleware before the session and CSRF middleware, and a custom domain is not in `ALLOWED_HOSTS`, so the CSRF
check's `request.get_host()` would raise `DisallowedHost`. Instead:

- the page sets a random, HttpOnly, SameSite=Lax cookie (`COOKIE_NAME`) when the visitor has none;
- the page's hidden `csrf_token` is a signed, timestamped statement "form F for the cookie whose hash is H";
- a submission is accepted only with that cookie, a token signed by this server within `TOKEN_MAX_AGE` for this form
  and this cookie, and an `Origin` header (when the browser sends one, as every current browser does on POST)
  naming the host the form was posted to.

Another site cannot read the token (same-origin policy) nor make the visitor's browser send the cookie on a
cross-site POST (SameSite=Lax), and the Origin check refuses cross-site posts outright.
"""

import hashlib
import hmac
import re
import secrets
from urllib.parse import urlsplit

from django.conf import settings

from apps.api.signed_tokens import ExpiringToken

COOKIE_NAME = "form_csrf"
TOKEN_FIELD = "csrf_token"
TOKEN_MAX_AGE = 24 * 3600
_TOKENS = ExpiringToken("apps.forms.csrf", TOKEN_MAX_AGE)
_COOKIE_RE = re.compile(r"^[A-Za-z0-9_-]{32,64}$")


def _cookie_hash(cookie: str) -> str:
    return hashlib.sha256(f"{settings.SECRET_KEY}:{cookie}".encode()).hexdigest()[:32]


def visitor_cookie(request) -> tuple[str, bool]:
    """The visitor's CSRF cookie value and whether it is new (to be set on the response)."""
    value = request.COOKIES.get(COOKIE_NAME, "")
    if _COOKIE_RE.match(value):
        return value, False
    return secrets.token_urlsafe(32), True


def set_cookie(response, value: str) -> None:
    response.set_cookie(
        COOKIE_NAME,
        value,
        max_age=TOKEN_MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=settings.SITE_SCHEME == "https",
        path="/",
    )


def token_for(form_id: int, cookie: str) -> str:
    return _TOKENS.make(f"{form_id}:{_cookie_hash(cookie)}")


def origin_allowed(request, raw_host: str) -> bool:
    """No `Origin` header (older clients) passes; one naming another host, or `null`, does not."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc.lower() == (raw_host or "").lower()


def token_valid(request, form_id: int) -> bool:
    cookie = request.COOKIES.get(COOKIE_NAME, "")
    token = request.POST.get(TOKEN_FIELD, "")
    if not _COOKIE_RE.match(cookie) or not token:
        return False
    claims = _TOKENS.read(token)
    if claims is None:
        return False
    return hmac.compare_digest(claims.value, f"{form_id}:{_cookie_hash(cookie)}")
