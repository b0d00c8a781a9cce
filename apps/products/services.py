"""Domain operations on products: the REST views and the demo data go through these (categories have no rule
beyond their fields: `apps.kernel.records` writes them).

A product's row is locked for every update, so a stock adjustment reads the stock it changes: concurrent
adjustments are applied one after the other and the stock never goes below zero. Products have no `product.*`
events (the webhook catalogue lists none).
"""

from django.db import IntegrityError, transaction

from apps.api.exceptions import Conflict, DuplicateValue, ValidationFailed
from apps.api.fields import MAX_INT
from apps.kernel.records import set_fields

from .models import Product

STOCK_NOT_TRACKED = "Stock is counted only when `trackStock` is true."


def _check_sku_free(organization_id, sku, exclude_id=None):
    if not sku:
        return
    taken = Product.objects.filter(organization_id=organization_id, sku=sku)
    if exclude_id is not None:
        taken = taken.exclude(pk=exclude_id)
    existing_id = taken.values_list("id", flat=True).first()
    if existing_id is not None:
        raise DuplicateValue("sku", existing_id, "Another product of the organization has this SKU.")


def _save(product: Product, *, creating: bool) -> Product:
    """Save in a savepoint; an SKU taken by a concurrent write (the unique constraint) is 409 DUPLICATE_VALUE."""
    exclude_id = None if creating else product.pk
    _check_sku_free(product.organization_id, product.sku, exclude_id)
    try:
        with transaction.atomic():
            product.save()
    except IntegrityError:
        _check_sku_free(product.organization_id, product.sku, exclude_id)
        raise
    return product


def _apply_stock(product: Product, quantity_given: bool, quantity, adjustment) -> None:
    """Set `stock_quantity` from the request on the locked row: an absolute `quantity`, or a signed `adjustment`
    of the current stock (refused with 409 when it would leave less than zero)."""
    if not product.track_stock:
        if quantity_given and quantity is not None:
            raise ValidationFailed({"stockQuantity": [STOCK_NOT_TRACKED]})
        if adjustment is not None:
            raise Conflict(
                "The product does not track stock; set `trackStock: true` first.",
                details={"trackStock": False},
            )
        product.stock_quantity = None
        return
    if quantity_given:
        if quantity is None:
            raise ValidationFailed({"stockQuantity": ["Must be an integer of 0 or more while `trackStock` is true."]})
        product.stock_quantity = quantity
    elif product.stock_quantity is None:
        product.stock_quantity = 0
    if adjustment is None:
        return
    remaining = product.stock_quantity + adjustment
    if remaining < 0:
        raise Conflict(
            f"Not enough stock: {product.stock_quantity} left, the adjustment takes {-adjustment}.",
            details={"stockQuantity": product.stock_quantity, "stockAdjustment": adjustment},
        )
    if remaining > MAX_INT:
        raise ValidationFailed({"stockAdjustment": [f"The stock would exceed {MAX_INT}."]})
    product.stock_quantity = remaining


@transaction.atomic
def create_product(organization, data: dict) -> Product:
    """`data` holds model field names (validated input)."""
    data = dict(data)
    quantity_given = "stock_quantity" in data
    quantity = data.pop("stock_quantity", None)
    product = Product(organization=organization, **data)
    _apply_stock(product, quantity_given, quantity, None)
    return _save(product, creating=True)


@transaction.atomic
def update_product(product: Product, data: dict) -> Product:
    """Partial update of the locked row. `stock_adjustment` (a signed integer) changes the stock it reads there."""
    data = dict(data)
    locked = Product.objects.select_for_update().get(pk=product.pk)
    quantity_given = "stock_quantity" in data
    quantity = data.pop("stock_quantity", None)
    adjustment = data.pop("stock_adjustment", None)
    set_fields(locked, data)
    _apply_stock(locked, quantity_given, quantity, adjustment)
    return _save(locked, creating=False)
