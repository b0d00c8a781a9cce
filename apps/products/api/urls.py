from rest_framework.routers import SimpleRouter

from .views import ProductCategoryViewSet, ProductViewSet

router = SimpleRouter(trailing_slash=False)
router.register("products", ProductViewSet, basename="product")
router.register("product-categories", ProductCategoryViewSet, basename="product-category")

urlpatterns = router.urls
