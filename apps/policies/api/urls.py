from rest_framework.routers import SimpleRouter

from .views import BookingPolicyViewSet, DocumentRuleViewSet

router = SimpleRouter(trailing_slash=False)
router.register("booking-policies", BookingPolicyViewSet, basename="booking-policy")
router.register("document-rules", DocumentRuleViewSet, basename="document-rule")

urlpatterns = router.urls
