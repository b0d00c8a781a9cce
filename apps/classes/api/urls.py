from rest_framework.routers import SimpleRouter

from .types_views import ClassTypeViewSet, ProgressionTrackViewSet
from .views import ClassViewSet

router = SimpleRouter(trailing_slash=False)
router.register("classes", ClassViewSet, basename="classes")
router.register("class-types", ClassTypeViewSet, basename="class-type")
router.register("progression-tracks", ProgressionTrackViewSet, basename="progression-track")

urlpatterns = router.urls
