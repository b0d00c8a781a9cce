from rest_framework.routers import SimpleRouter

from .views import PlanCategoryViewSet, PlanViewSet, RevenueAccountViewSet

router = SimpleRouter(trailing_slash=False)
router.register("revenue-accounts", RevenueAccountViewSet, basename="revenue-account")
router.register("plan-categories", PlanCategoryViewSet, basename="plan-category")
router.register("plans", PlanViewSet, basename="plan")

urlpatterns = router.urls
