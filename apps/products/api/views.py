"""Products and product categories. No DELETE: a product is deactivated with `isActive: false`."""

from drf_spectacular.utils import OpenApiParameter

from apps.api.schema import crud_schema_view
from apps.api.scopes import crud_scopes
from apps.api.views import CreateResourceMixin, ResourceViewSet, UpdateResourceMixin, Writes

from .. import services
from ..filters import ProductCategoryFilterSet, ProductFilterSet
from ..models import Product, ProductCategory
from ..resources import PRODUCT, PRODUCT_CATEGORY
from .serializers import ProductCategoryInputSerializer, ProductCreateSerializer, ProductUpdateSerializer

LOCALE_PARAM = OpenApiParameter(
    "locale", str, description="Language code for names and descriptions; falls back to the organization's default."
)


@crud_schema_view(
    "products",
    tags=["products"],
    summaries={
        "list": "List products (with their remaining stock)",
        "partial_update": "Update a product or adjust its stock",
    },
    descriptions={
        "create": "`name` and `price` are required. There is no DELETE; set `isActive: false` instead.",
        "partial_update": "Partial update. `stockQuantity` sets the stock; `stockAdjustment` changes it by a signed "
        "amount, applied to the stock of that moment (concurrent adjustments never leave it below 0: 409 "
        "`CONFLICT`).",
    },
    parameters={"list": [LOCALE_PARAM], "retrieve": [LOCALE_PARAM]},
)
class ProductViewSet(CreateResourceMixin, UpdateResourceMixin, ResourceViewSet):
    """Something sold over the counter, with its remaining stock."""

    queryset = Product.objects.all()
    resource = PRODUCT
    filterset_class = ProductFilterSet
    required_scopes = crud_scopes("products")

    write_serializer = ProductCreateSerializer
    update_serializer = ProductUpdateSerializer

    writes = Writes(create=services.create_product, update=services.update_product)
    present_under_update_lock = True


@crud_schema_view(
    "product_categories",
    tags=["products"],
    parameters={"list": [LOCALE_PARAM], "retrieve": [LOCALE_PARAM]},
)
class ProductCategoryViewSet(CreateResourceMixin, UpdateResourceMixin, ResourceViewSet):
    """A grouping of products in the catalogue."""

    queryset = ProductCategory.objects.all()
    resource = PRODUCT_CATEGORY
    filterset_class = ProductCategoryFilterSet
    required_scopes = crud_scopes("products")

    write_serializer = ProductCategoryInputSerializer
