from rest_framework.routers import SimpleRouter

from .views import InvoiceViewSet

router = SimpleRouter(trailing_slash=False)
router.register("invoices", InvoiceViewSet, basename="invoice")

urlpatterns = router.urls
