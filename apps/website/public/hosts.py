"""Which website a request's host names: `<slug>.{SITE_HOST}` or a website's verified custom `domain`.

The platform's own hosts (apps/website/domains.py: API, admin, authorization, MCP and marketplace hosts, every fixed
`ALLOWED_HOSTS` name) are answered without a query and never by a website; any other host costs one indexed lookup.
"""

from ..domains import hostname, platform_hosts, site_host
from ..models import Website

__all__ = ["hostname", "site_for_host"]


def site_for_host(raw_host: str) -> Website | None:
    """The website answering on `raw_host` (port ignored), or None when the host is not a website's."""
    host = hostname(raw_host or "")
    if not host or host in platform_hosts():
        return None
    websites = Website.objects.select_related("organization", "active_release", "club")
    suffix = "." + site_host()
    if host.endswith(suffix):
        label = host[: -len(suffix)]
        if not label or "." in label:
            return None
        return websites.filter(slug=label).first()
    # A custom domain is served only once its DNS TXT challenge proved the organization controls it.
    return websites.filter(domain=host, domain_verified_at__isnull=False).first()
