from rest_framework.routers import SimpleRouter

from .views import InstructorTypeViewSet, InstructorViewSet, PayRatePolicyViewSet

router = SimpleRouter(trailing_slash=False)
router.register("instructors", InstructorViewSet, basename="instructor")
router.register("instructor-types", InstructorTypeViewSet, basename="instructor-type")
router.register("pay-rate-policies", PayRatePolicyViewSet, basename="pay-rate-policy")

urlpatterns = router.urls
