"""The project's URLs plus the test-only probe views (use with `@pytest.mark.urls("tests.api.urls_for_tests")`)."""

from django.urls import include, path

from config import urls as project_urls

from . import probe_views

probe_urls = [
    path("any-of", probe_views.AnyOfView.as_view()),
    path("reports-probe", probe_views.ReportsView.as_view()),
    path("undeclared", probe_views.UndeclaredView.as_view()),
    path("boom", probe_views.BoomView.as_view()),
    path("", include(probe_views.router.urls)),
]

urlpatterns = [path("v1/platform/_test/", include(probe_urls))] + project_urls.urlpatterns

handler404 = project_urls.handler404
handler500 = project_urls.handler500
