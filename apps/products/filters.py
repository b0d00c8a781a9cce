"""Query parameters of the products and product categories lists."""

from django.db.models import Q
from django.db.models.functions import Lower

from apps.api.filtersets import BooleanFilter, IntegerFilter, Ordering, PlatformFilterSet, SearchFilter


class ProductFilterSet(PlatformFilterSet):
    categoryId = IntegerFilter("category_id")
    clubId = IntegerFilter("club_id")
    isActive = BooleanFilter("is_active")
    inStock = BooleanFilter(
        method="in_stock",
        help_text="`true`: products that can be sold now (stock not tracked, or `stockQuantity` above 0); "
        "`false`: tracked products with no stock left.",
    )
    q = SearchFilter("name", "sku", help_text="Case-insensitive substring of the name or the SKU.")

    ordering = Ordering(
        {
            "createdAt": "created_at",
            "updatedAt": "updated_at",
            "name": Lower("name"),
            "price": "price",
            "stockQuantity": "stock_quantity",
        },
        default="-createdAt",
        help_text="`createdAt` (default `-createdAt`), `updatedAt`, `name`, `price`, `stockQuantity`; "
        "`-` for descending.",
    )

    def in_stock(self, queryset, name, value):
        available = Q(track_stock=False) | Q(stock_quantity__gt=0)
        return queryset.filter(available) if value else queryset.exclude(available)


class ProductCategoryFilterSet(PlatformFilterSet):
    ordering = Ordering(
        {"createdAt": "created_at", "updatedAt": "updated_at", "name": Lower("name"), "position": "position"},
        default="-createdAt",
        help_text="`createdAt` (default `-createdAt`), `updatedAt`, `name`, `position`; `-` for descending.",
    )
