"""Product and product category shapes. A page of products is one query: the category's name and translations are
joined columns."""

import datetime as dt
from typing import Annotated, TypedDict

from apps.api.resources import Describe, PresentContext, Resource
from apps.classes.choices import Visibility

from . import models


class ProductCategory(TypedDict):
    id: int
    name: str
    description: str | None
    position: int
    translations: Annotated[dict, Describe("{locale: {name, description}}; read-only.")]
    createdAt: dt.datetime
    updatedAt: dt.datetime


class ProductCategoryRef(TypedDict):
    id: int
    name: str


class Product(TypedDict):
    id: int
    name: str
    description: str | None
    categoryId: int | None
    category: ProductCategoryRef | None
    clubId: int | None
    sku: str | None
    price: float
    revenueAccountId: Annotated[
        int | None, Describe("The revenue account of its sales; null: the organization's default at sale time.")
    ]
    trackStock: bool
    stockQuantity: Annotated[int | None, Describe("The remaining stock; null when `trackStock` is false.")]
    isActive: bool
    visibility: Visibility
    images: list[str]
    translations: Annotated[dict, Describe("{locale: {name, description}}; read-only.")]
    createdAt: dt.datetime
    updatedAt: dt.datetime


class ProductResource(Resource):
    shape = Product
    model = models.Product
    translated = ("name", "description")
    columns = ("category__name", "category__translations")

    def present(self, row: dict, ctx: PresentContext) -> Product:
        return self.body(row, ctx, category=ctx.translated_ref(row, "category"))


PRODUCT_CATEGORY = Resource(ProductCategory, models.ProductCategory, translated=("name", "description"))
PRODUCT = ProductResource()
