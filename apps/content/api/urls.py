from rest_framework.routers import SimpleRouter

from .views import ContentItemViewSet, MediaItemViewSet

router = SimpleRouter(trailing_slash=False)
router.register("content-items", ContentItemViewSet, basename="content-item")
router.register("media", MediaItemViewSet, basename="media-item")

urlpatterns = router.urls
