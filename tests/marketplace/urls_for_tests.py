"""The project's URLs plus marketplace views that fail (`@pytest.mark.urls("tests.marketplace.urls_for_tests")`)."""

from django.urls import path

from apps.marketplace.api.views import MarketplaceView
from config import urls as project_urls


class BoomView(MarketplaceView):
    def get(self, request):
        raise RuntimeError("secret internal detail")


def plain_boom(request):
    """A plain Django view (outside DRF): the middleware answers for it."""
    raise RuntimeError("secret internal detail")


urlpatterns = [
    path("v1/public/_test/boom", BoomView.as_view()),
    path("v1/public/_test/plain-boom", plain_boom),
] + project_urls.urlpatterns

handler404 = project_urls.handler404
handler500 = project_urls.handler500
