from .views import urlpatterns  # noqa: F401
