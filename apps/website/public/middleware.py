"""Host-based routing of the published websites, in the same process as the API and before its URLs.

A request whose host is `<slug>.{SITE_HOST}` or a website's custom domain is answered here (the site, its sitemap,
robots.txt or a draft preview) and goes no further; every other request passes on untouched. Custom domains need
no `ALLOWED_HOSTS` entry: a site response never reads the host through Django.
"""

from django.conf import settings

from .hosts import site_for_host
from .render import not_found, serve_site


class WebsiteHostMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        raw_host = request.META.get("HTTP_HOST") or request.META.get("SERVER_NAME", "")
        website = site_for_host(raw_host)
        if website is None:
            if _names_a_site(raw_host):
                return not_found()
            return self.get_response(request)
        return serve_site(request, website)


def _names_a_site(raw_host: str) -> bool:
    """A host under SITE_HOST that no website owns: a plain 404 rather than the API's."""
    host = raw_host.split(":", 1)[0].lower()
    return host.endswith("." + settings.SITE_HOST.split(":", 1)[0].lower())
