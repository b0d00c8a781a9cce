from rest_framework.routers import SimpleRouter

from .views import TransactionViewSet

router = SimpleRouter(trailing_slash=False)
router.register("transactions", TransactionViewSet, basename="transaction")

urlpatterns = router.urls
