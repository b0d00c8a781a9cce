"""Per-address limits of the public surfaces, the ones no credential protects: the marketplace API, the gym pages
and calendar feeds, the club sites with their form pages, and invoice PDF links.

Counted by django-ratelimit (`get_usage`) in the shared cache: a fixed 60-second window per group and client
address (`client_address`: trusted proxies only, IPv6 grouped by /64), with django-ratelimit's per-address jitter
of the window's end. A request may count against several groups (the gym page does the offer search's work, so it
also counts against `marketplace-offers`); the group closest to its limit is the one reported. If the cache cannot
be reached the request is let through (fail open), like the credential buckets (`apps.api.ratelimit`).

Two entry points, neither forking a view's dispatch:
- `limit_public(*groups, refuse=...)`, a decorator for Django views (pages, feeds, PDFs): 429 from `refuse`;
- `AddressThrottle`, a DRF throttle (the marketplace API's views declare `address_limits`).
Both answer 429 with `Retry-After` (the seconds left in the window) and the `RateLimit-*` headers.
"""

import functools

from django.conf import settings
from django.http import HttpResponse
from django_ratelimit.core import get_usage
from rest_framework.throttling import BaseThrottle

from . import ratelimit
from .client_address import client_address
from .metrics import count_refusal

# Groups, and their requests per minute per client address (times RATE_LIMIT_MULTIPLIER).
MARKETPLACE = "marketplace"  # the marketplace API's club search and profile
MARKETPLACE_OFFERS = "marketplace-offers"  # the offer search, and the gym page (it computes the same free times)
MARKETPLACE_PAGES = "marketplace-pages"  # the gym page, its classes.ics, the instructors' feeds
SITE = "site"  # every request to a club site's host: pages, blog, sitemap, robots, previews, form pages
FORM_SUBMISSIONS = "form-submissions"  # answers posted to a form page (besides `site`)
INVOICE_PDF = "invoice-pdf"  # invoice PDF links (each renders a PDF)
OAUTH = "oauth"  # the OAuth registration, token and revocation endpoints (no credential yet)

LIMITS = {
    MARKETPLACE: 120,
    MARKETPLACE_OFFERS: 30,
    MARKETPLACE_PAGES: 120,
    SITE: 300,
    FORM_SUBMISSIONS: 10,
    INVOICE_PDF: 30,
    OAUTH: 20,
}


def limit_of(group: str) -> int:
    return max(1, int(LIMITS[group] * settings.RATE_LIMIT_MULTIPLIER))


def _address(group, request) -> str:
    return client_address(request)


def _state(request, group: str) -> ratelimit.BucketState:
    limit = limit_of(group)
    try:
        usage = get_usage(request, group=group, key=_address, rate=(limit, ratelimit.WINDOW_SECONDS), increment=True)
    except Exception as exc:  # noqa: BLE001 - the cache is down: fail open rather than take the pages down
        ratelimit.record_fail_open(exc)
        usage = None
    if usage is None:  # RATELIMIT_ENABLE off, or (RATELIMIT_FAIL_OPEN) the count could not be read
        return ratelimit.BucketState(group, limit, limit, ratelimit.WINDOW_SECONDS, False)
    count = usage["count"]
    reset = min(ratelimit.WINDOW_SECONDS, max(1, usage["time_left"]))
    return ratelimit.BucketState(group, limit, max(0, limit - count), reset, count > limit)


def consume(request, groups) -> tuple[ratelimit.BucketState, bool]:
    """Count `request` against each of `groups`: (the state to report, whether it is refused). A refused request
    reports the exceeded group that frees up last."""
    request = getattr(request, "_request", request)  # django-ratelimit reads the Django request
    states = [_state(request, group) for group in groups]
    exceeded = ratelimit.first_exceeded(states)
    if exceeded:
        count_refusal(exceeded.bucket)
        return exceeded, True
    return ratelimit.tightest(states), False


def refusal_headers(response, state: ratelimit.BucketState):
    ratelimit.apply_headers(response, state)
    response["Retry-After"] = str(state.reset)
    response["Cache-Control"] = "no-store"
    return response


def too_many_page(request, state) -> HttpResponse:
    """The default 429 of a public page or feed: a short HTML page."""
    return HttpResponse(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Too many requests</title></head>'
        "<body><main><h1>Too many requests</h1>"
        f"<p>Too many requests from your address. Please try again in {state.reset} seconds.</p></main></body></html>",
        status=429,
        content_type="text/html; charset=utf-8",
    )


def limit_public(*groups: str, refuse=too_many_page):
    """Decorate a Django view: each request counts against `groups` for its client address; over a limit the
    view is not run and `refuse(request, state)` answers (with the status it sets, 429) plus `Retry-After` and
    the `RateLimit-*` headers. Responses under the limit are left as they are (pages are cached publicly, so
    they carry no per-address headers)."""
    for group in groups:
        limit_of(group)  # an unknown group fails at import time, not on a request

    def decorate(view):
        @functools.wraps(view)
        def limited(request, *args, **kwargs):
            state, refused = consume(request, groups)
            if refused:
                return refusal_headers(refuse(request, state), state)
            return view(request, *args, **kwargs)

        limited.address_limits = groups
        return limited

    return decorate


class AddressThrottle(BaseThrottle):
    """DRF throttle over the view's `address_limits` groups. The reported state is left on the request
    (`_rate_limit_state`) for the view to write the `RateLimit-*` headers on every response."""

    def allow_request(self, request, view):
        state, refused = consume(request, view.address_limits)
        request._rate_limit_state = state
        self.state = state
        return not refused

    def wait(self):
        return self.state.reset
