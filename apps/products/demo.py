"""Demo products: drinks and padel gear in two categories, most with stock (one sold out), one without stock."""

from decimal import Decimal

from .models import Product, ProductCategory

CATEGORIES = {
    "Drinks": {"description": "Cold drinks at the bar.", "position": 0, "translations": {"es": {"name": "Bebidas"}}},
    "Padel gear": {
        "description": "Balls, grips and rackets.",
        "position": 1,
        "translations": {"es": {"name": "Material de pádel"}},
    },
}

PRODUCTS = {
    "DRK-WATER": ("Drinks", "Mineral water 50 cl", Decimal("1.50"), 48),
    "DRK-ISO": ("Drinks", "Isotonic drink", Decimal("2.50"), 24),
    "PDL-BALLS": ("Padel gear", "Padel balls (can of 3)", Decimal("6.95"), 30),
    "PDL-GRIP": ("Padel gear", "Overgrip", Decimal("3.00"), 0),
    "PDL-RENT": ("Padel gear", "Racket rental", Decimal("4.00"), None),
}


def seed(organization, ctx: dict) -> None:
    """Idempotent. Puts `ctx["product_categories"]` ({name: ProductCategory}) and `ctx["products"]` ({sku: Product})."""
    categories = {}
    for name, fields in CATEGORIES.items():
        categories[name], _ = ProductCategory.objects.get_or_create(
            organization=organization, name=name, defaults=fields
        )
    club = (ctx.get("clubs") or [None])[0]
    products = {}
    for sku, (category, name, price, stock) in PRODUCTS.items():
        products[sku], _ = Product.objects.get_or_create(
            organization=organization,
            sku=sku,
            defaults={
                "name": name,
                "category": categories[category],
                "club": club,
                "price": price,
                "track_stock": stock is not None,
                "stock_quantity": stock,
            },
        )
    ctx["product_categories"] = categories
    ctx["products"] = products
