"""Host-based routing of the published websites, in the same process as the API and before its URLs.

A request whose host is `<slug>.{SITE_HOST}` or a website's custom domain is answered here (the site, its sitemap,
robots.txt or a draft preview) and goes no further; every other request passes on untouched. Custom domains need
no `ALLOWED_HOSTS` entry: a site response never reads the host through Django.
"""

import re

from django.conf import settings

from apps.api.page_security import site_chain

from .hosts import hostname, site_for_host
from .render import not_found, serve_site


class WebsiteHostMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        # Site responses skip the rest of Django's chain: they pass through the same security middlewares here.
        self.serve = site_chain(self._serve)

    def __call__(self, request):
        raw_host = request.META.get("HTTP_HOST") or request.META.get("SERVER_NAME", "")
        website = site_for_host(raw_host)
        if website is None:
            if _names_a_site(raw_host):
                request.site_host = hostname(raw_host)
                return self.serve(request)
            return self.get_response(request)
        request.site_host = hostname(raw_host)
        request.website = website
        return self.serve(request)

    @staticmethod
    def _serve(request):
        website = getattr(request, "website", None)
        return not_found() if website is None else serve_site(request, website)


_HOST_NAME = re.compile(r"[a-z0-9-]+(\.[a-z0-9-]+)*")


def _names_a_site(raw_host: str) -> bool:
    """A well-formed host under SITE_HOST that no website owns: a plain 404 rather than the API's."""
    host = hostname(raw_host)
    return _HOST_NAME.fullmatch(host) is not None and host.endswith("." + hostname(settings.SITE_HOST))
