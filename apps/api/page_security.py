"""Security headers of the public pages: club sites and their form pages (site hosts) and the marketplace pages.

Site hosts are answered by the website middleware before Django's own middleware chain, so that chain's
`SecurityMiddleware` and `XFrameOptionsMiddleware` never saw them. `site_chain()` wraps the site handler in the same
two middlewares (the same settings: `SECURE_SSL_REDIRECT`, `SECURE_HSTS_*`, `X_FRAME_OPTIONS`) plus the public-page
headers below; the marketplace pages, which do pass through Django's chain, add the public-page headers with the
`public_page` decorator. Every public page thus carries HSTS (over https, when configured), the HTTPS redirect
(when configured), `X-Frame-Options`, `X-Content-Type-Options: nosniff`, a `Referrer-Policy` and
`PUBLIC_PAGE_CSP`.

The pages run no script at all, so the policy forbids every script; their one inline `<style>` (the theme tokens,
validated on write) needs `style-src 'unsafe-inline'`.
"""

from django.conf import settings
from django.http import HttpResponsePermanentRedirect
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.security import SecurityMiddleware
from django.utils.decorators import decorator_from_middleware
from django.utils.deprecation import MiddlewareMixin

REFERRER_POLICY = "strict-origin-when-cross-origin"


class PublicPageHeadersMiddleware(MiddlewareMixin):
    def process_response(self, request, response):
        response.headers.setdefault("Content-Security-Policy", settings.PUBLIC_PAGE_CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", REFERRER_POLICY)
        return response


# A view whose responses are public pages (the marketplace pages and feeds).
public_page = decorator_from_middleware(PublicPageHeadersMiddleware)


class SiteSecurityMiddleware(SecurityMiddleware):
    """Django's `SecurityMiddleware` for a site host. Its redirect to https names the site's host name as the website
    middleware matched it (`request.site_host`: lower case, no port, no user part): `request.get_host()` would refuse
    a custom domain (custom domains are not in `ALLOWED_HOSTS`), and `SECURE_SSL_HOST` is the API's host."""

    def process_request(self, request):
        path = request.path.lstrip("/")
        if self.redirect and not request.is_secure() and not any(p.search(path) for p in self.redirect_exempt):
            return HttpResponsePermanentRedirect(f"https://{request.site_host}{request.get_full_path()}")
        return None


def site_chain(handler):
    """`handler(request)` wrapped in the security middlewares every site-host response passes through."""
    return SiteSecurityMiddleware(XFrameOptionsMiddleware(PublicPageHeadersMiddleware(handler)))
