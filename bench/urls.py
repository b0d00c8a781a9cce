"""The project's URLs plus bench-only views: bare Django views returning pre-captured bytes.

The bare views go through the same middleware stack in the same gunicorn process as the API, so the ratio
between the two isolates what the Platform API plumbing (DRF, authentication, scopes, rate limits, rendering,
the query) costs per request.
"""

import os
from pathlib import Path

from django.http import HttpResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt

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


urlpatterns = [
    path("bench/bare/<slug:name>", bare_view),
] + project_urls.urlpatterns

handler404 = project_urls.handler404
handler500 = project_urls.handler500
