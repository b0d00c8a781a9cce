from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularJSONAPIView, SpectacularSwaggerView, SpectacularYAMLAPIView

from apps.api.health import healthz, readyz
from apps.api.views import not_found
from apps.invoices.views import invoice_pdf
from apps.marketplace.api.views import not_found as marketplace_not_found
from apps.marketplace.pages.urls import feed_urlpatterns, marketplace_urlpatterns
from apps.mcp.views import mcp_endpoint
from apps.observability.views import metrics

platform_urls = [
    path("", include("apps.organizations.api.urls")),
    path("", include("apps.clubs.api.urls")),
    path("", include("apps.occupancy.api.urls")),
    path("", include("apps.contacts.api.urls")),
    path("", include("apps.instructors.api.urls")),
    path("", include("apps.classes.api.urls")),
    path("", include("apps.bookings.api.urls")),
    path("", include("apps.products.api.urls")),
    path("", include("apps.transactions.api.urls")),
    path("", include("apps.invoices.api.urls")),
    path("", include("apps.billing.api.urls")),
    path("", include("apps.pricing.api.urls")),
    path("", include("apps.policies.api.urls")),
    path("", include("apps.analytics.api.urls")),
    path("", include("apps.content.api.urls")),
    path("", include("apps.messaging.api.urls")),
    path("", include("apps.forms.api.urls")),
    path("", include("apps.website.api.urls")),
    path("", include("apps.memberships.api.urls")),
    path("", include("apps.events.api.urls")),
    path("", include("apps.webhooks.api.urls")),
]

# The marketplace pages are served under the path part of MARKETPLACE_URL ("/marketplace" by default; none when the
# marketplace has a host of its own).
MARKETPLACE_PREFIX = urlsplit(settings.MARKETPLACE_URL).path.strip("/")

# The MCP server answers at `{MCP_URL}/admin`: under the path part of MCP_URL ("/mcp" by default; none when MCP
# has a host of its own, where `/admin` without a slash is not the Django admin's `/admin/`).
MCP_PREFIX = urlsplit(settings.MCP_URL).path.strip("/")
MCP_ADMIN = f"{MCP_PREFIX}/admin" if MCP_PREFIX else "admin"

urlpatterns = [
    path(MCP_ADMIN, mcp_endpoint, name="mcp-admin"),
    path(f"{MCP_ADMIN}/readonly", mcp_endpoint, {"read_only": True}, name="mcp-admin-readonly"),
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("metrics", metrics, name="metrics"),
    path("", include("apps.oauth.urls")),
    path("readyz", readyz, name="readyz"),
    path("v1/platform/", include(platform_urls)),
    # Public: the signed link is the credential (apps/invoices/links.py). Before the catch-all 404 below.
    path("v1/invoices/pdf/<str:token>", invoice_pdf, name="invoice-pdf"),
    path("v1/public/", include("apps.marketplace.api.urls")),
    re_path(r"^v1/public$", marketplace_not_found),
    path("v1/openapi.json", SpectacularJSONAPIView.as_view(), name="openapi-json"),
    path("v1/openapi.yaml", SpectacularYAMLAPIView.as_view(), name="openapi-yaml"),
    path("v1/docs", SpectacularSwaggerView.as_view(url_name="openapi-json"), name="api-docs"),
    path("feeds/", include(feed_urlpatterns)),
    path(f"{MARKETPLACE_PREFIX}/" if MARKETPLACE_PREFIX else "", include(marketplace_urlpatterns)),
    re_path(r"^v1(/.*)?$", not_found),
]

handler404 = "apps.api.errors.handler404"
handler500 = "apps.api.errors.handler500"
