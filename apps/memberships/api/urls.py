from rest_framework.routers import SimpleRouter

from .views import MembershipViewSet

router = SimpleRouter(trailing_slash=False)
router.register("memberships", MembershipViewSet, basename="membership")

urlpatterns = router.urls
