"""Input validation for products and product categories. `translations` is read-only through the API (ignored like
any unknown field)."""

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from apps.api.fields import (
    InputSerializer,
    OrganizationObjectField,
    StrictBooleanField,
    StrictCharField,
    StrictDecimalField,
    StrictIntegerField,
    StrictURLField,
)
from apps.billing.models import RevenueAccount
from apps.classes.choices import Visibility
from apps.clubs.models import Club

from ..models import ProductCategory


@extend_schema_serializer(component_name="ProductCategoryInput")
class ProductCategoryInputSerializer(InputSerializer):
    name = StrictCharField(max_length=120)
    description = StrictCharField(max_length=5000, required=False, allow_null=True, allow_blank=True)
    position = StrictIntegerField(min_value=0, required=False)


@extend_schema_serializer(component_name="ProductCreate")
class ProductCreateSerializer(InputSerializer):
    """POST body: `name` and `price` are required."""

    blank_is_null = ("sku",)
    name = StrictCharField(max_length=120)
    description = StrictCharField(max_length=5000, required=False, allow_null=True, allow_blank=True)
    categoryId = OrganizationObjectField(model=ProductCategory, required=False, allow_null=True)
    clubId = OrganizationObjectField(model=Club, required=False, allow_null=True)
    sku = StrictCharField(max_length=64, required=False, allow_null=True, allow_blank=True)
    price = StrictDecimalField(max_digits=10, decimal_places=2, min_value=0, help_text="Tax-inclusive.")
    revenueAccountId = OrganizationObjectField(
        model=RevenueAccount,
        active_only=True,
        required=False,
        allow_null=True,
        help_text="Null or omitted: sales post to the organization's default account, resolved at sale time.",
    )
    trackStock = StrictBooleanField(required=False)
    stockQuantity = StrictIntegerField(
        min_value=0,
        required=False,
        allow_null=True,
        help_text="The stock on hand; only with `trackStock: true` (default 0 then).",
    )
    isActive = StrictBooleanField(required=False)
    visibility = serializers.ChoiceField(choices=Visibility.choices, required=False)
    images = serializers.ListField(child=StrictURLField(max_length=2048), max_length=20, required=False)


@extend_schema_serializer(component_name="ProductUpdate")
class ProductUpdateSerializer(ProductCreateSerializer):
    """PATCH body: every field optional. Stock is set with `stockQuantity` or changed with `stockAdjustment`."""

    stockAdjustment = StrictIntegerField(
        min_value=-(2**31 - 1),
        required=False,
        help_text="Signed change of the remaining stock (`-1` sells one, `12` receives a dozen), applied to the "
        "stock at that moment; 409 `CONFLICT` when it would leave less than 0. Not with `stockQuantity`.",
    )

    def validate(self, attrs):
        if "stock_quantity" in attrs and "stock_adjustment" in attrs:
            raise serializers.ValidationError(
                {"stockAdjustment": ["Send either `stockQuantity` or `stockAdjustment`, not both."]}
            )
        return attrs
