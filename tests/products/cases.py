import itertools

from django.utils import timezone

from apps.organizations.models import ApiKey
from apps.products.models import Product, ProductCategory
from tests.harness import EndpointCase


def _settle_key_usage(organization):
    """The first request of a fresh API key also writes `last_used_at`; mark the keys used so the contract's
    one-row vs many-rows query comparison counts only the list's own queries."""
    ApiKey.objects.filter(organization=organization).update(last_used_at=timezone.now())


_seq = itertools.count()


def _category(organization, name="Drinks"):
    return ProductCategory.objects.create(organization=organization, name=name, translations={"es": {"name": "B"}})


def product_ids(organization):
    return {"id": Product.objects.create(organization=organization, name="Water", price="1.50").id}


def product_rows(organization, n):
    _settle_key_usage(organization)
    category = _category(organization)
    Product.objects.bulk_create(
        [
            Product(
                organization=organization,
                category=category if i % 2 else None,
                name=f"P{i}",
                sku=f"SKU-{next(_seq)}",
                price="2.00",
                track_stock=True,
                stock_quantity=i,
                images=["https://example.com/p.png"],
            )
            for i in range(n)
        ]
    )


def category_ids(organization):
    return {"id": _category(organization).id}


def category_rows(organization, n):
    _settle_key_usage(organization)
    ProductCategory.objects.bulk_create(
        [ProductCategory(organization=organization, name=f"C{i}", position=i) for i in range(n)]
    )


CASES = [
    EndpointCase("GET", "/v1/platform/products", "products:read", list_rows=product_rows),
    EndpointCase("GET", "/v1/platform/products/{id}", "products:read", setup=product_ids),
    EndpointCase("POST", "/v1/platform/products", "products:write", body={"name": "Water", "price": 1.5}),
    EndpointCase("PATCH", "/v1/platform/products/{id}", "products:write", setup=product_ids, body={}),
    EndpointCase("GET", "/v1/platform/product-categories", "products:read", list_rows=category_rows),
    EndpointCase("GET", "/v1/platform/product-categories/{id}", "products:read", setup=category_ids),
    EndpointCase("POST", "/v1/platform/product-categories", "products:write", body={"name": "Drinks"}),
    EndpointCase("PATCH", "/v1/platform/product-categories/{id}", "products:write", setup=category_ids, body={}),
]
