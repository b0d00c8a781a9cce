from rest_framework.routers import SimpleRouter

from .views import PricingRuleViewSet

router = SimpleRouter(trailing_slash=False)
router.register("pricing-rules", PricingRuleViewSet, basename="pricing-rule")

urlpatterns = router.urls
