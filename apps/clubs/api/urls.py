from rest_framework.routers import SimpleRouter

from .views import AreaBlockViewSet, AreaTypeViewSet, AreaViewSet, AvailabilityViewSet, ClubViewSet

router = SimpleRouter(trailing_slash=False)
router.register("clubs", ClubViewSet, basename="club")
router.register("areas", AreaViewSet, basename="area")
router.register("area-types", AreaTypeViewSet, basename="area-type")
router.register("area-blocks", AreaBlockViewSet, basename="area-block")
router.register("availability", AvailabilityViewSet, basename="availability")

urlpatterns = router.urls
