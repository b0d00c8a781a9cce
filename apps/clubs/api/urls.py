from rest_framework.routers import SimpleRouter

from .views import AreaTypeViewSet, AreaViewSet, ClubViewSet

router = SimpleRouter(trailing_slash=False)
router.register("clubs", ClubViewSet, basename="club")
router.register("areas", AreaViewSet, basename="area")
router.register("area-types", AreaTypeViewSet, basename="area-type")

urlpatterns = router.urls
