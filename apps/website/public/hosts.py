"""Which website a request's host names: `<slug>.{SITE_HOST}` or a website's custom `domain`.

The API's own hosts are answered without a query; any other host costs one indexed lookup.
"""

from urllib.parse import urlsplit

from django.conf import settings

from ..models import Website


def hostname(value: str) -> str:
    return value.split(":", 1)[0].strip().lower().rstrip(".")


def api_hosts() -> frozenset[str]:
    hosts = {hostname(urlsplit(settings.BASE_URL).netloc), "localhost", "127.0.0.1", "testserver", "[::1]"}
    hosts.update(hostname(host) for host in settings.ALLOWED_HOSTS if not host.startswith(".") and host != "*")
    return frozenset(hosts)


def site_for_host(raw_host: str) -> Website | None:
    """The website answering on `raw_host` (port ignored), or None when the host is not a website's."""
    host = hostname(raw_host or "")
    if not host or host in api_hosts():
        return None
    websites = Website.objects.select_related("organization", "active_release", "club")
    suffix = "." + hostname(settings.SITE_HOST)
    if host.endswith(suffix):
        label = host[: -len(suffix)]
        if not label or "." in label:
            return None
        return websites.filter(slug=label).first()
    return websites.filter(domain=host).first()
