"""The project's URLs plus bench-only views: bare Django views returning pre-captured bytes, and a fallback list.

The bare views go through the same middleware stack in the same gunicorn process as the API, so the ratio
between the two isolates what the Platform API plumbing (DRF, authentication, scopes, rate limits, rendering,
the query) costs per request.
"""

import os
from pathlib import Path

from django.http import HttpResponse
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from rest_framework.routers import SimpleRouter

from apps.api.views import PlatformViewSet
from apps.contacts.models import Contact
from config import urls as project_urls

CAPTURE_DIR = Path(os.environ.get("BENCH_CAPTURE_DIR", "/tmp/platform-bench"))


_BODIES: dict[str, bytes] = {}


@csrf_exempt
def bare_view(request, name: str):
    """The captured bytes of `name` (read once per process), as the API's response would carry them."""
    body = _BODIES.get(name)
    if body is None:
        try:
            body = _BODIES[name] = (CAPTURE_DIR / f"{name}.json").read_bytes()
        except FileNotFoundError:
            body = b"{}"
    return HttpResponse(body, content_type="application/json")


class BenchContactListViewSet(PlatformViewSet):
    """Fallback list endpoint (used only when /v1/platform/contacts is not routed)."""

    queryset = Contact.objects.all()
    required_scopes = {"list": "contacts:read"}

    def base_queryset(self):
        return Contact.objects.order_by("id").only("id", "first_name", "last_name", "email", "created_at")

    def list(self, request):
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(
            [
                {
                    "id": c.id,
                    "firstName": c.first_name,
                    "lastName": c.last_name,
                    "email": c.email,
                    "createdAt": c.created_at,
                }
                for c in page
            ]
        )


router = SimpleRouter(trailing_slash=False)
router.register("bench-contacts", BenchContactListViewSet, basename="bench-contacts")

urlpatterns = [
    path("bench/bare/<slug:name>", bare_view),
    path("v1/platform/", include(router.urls)),
] + project_urls.urlpatterns

handler404 = project_urls.handler404
handler500 = project_urls.handler500
