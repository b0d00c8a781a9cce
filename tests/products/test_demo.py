"""The demo data seeds products with stock in two categories, idempotently."""

from apps.products import demo
from apps.products.models import Product, ProductCategory


def test_seed_is_idempotent(organization, club, api):
    ctx = {"clubs": [club]}
    demo.seed(organization, ctx)
    demo.seed(organization, dict(ctx))
    assert ProductCategory.objects.filter(organization=organization).count() == 2
    assert Product.objects.filter(organization=organization).count() == 5
    assert ctx["products"]["PDL-BALLS"].stock_quantity == 30

    listed = api.get("/v1/platform/products", {"inStock": "false"}).json()
    assert [row["sku"] for row in listed["data"]] == ["PDL-GRIP"]
    assert api.get("/v1/platform/products", {"locale": "es", "q": "water"}).json()["data"][0]["category"]["name"] == (
        "Bebidas"
    )
