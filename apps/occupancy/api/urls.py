from rest_framework.routers import SimpleRouter

from .views import AreaBlockViewSet, AvailabilityViewSet

router = SimpleRouter(trailing_slash=False)
router.register("area-blocks", AreaBlockViewSet, basename="area-block")
router.register("availability", AvailabilityViewSet, basename="availability")

urlpatterns = router.urls
