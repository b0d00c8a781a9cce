from django.db import models

from apps.classes.choices import Visibility


class ProductCategory(models.Model):
    """A grouping of products in the catalogue."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE)
    name = models.CharField(max_length=120)
    description = models.TextField(null=True, blank=True)
    position = models.PositiveIntegerField(default=0)
    translations = models.JSONField(default=dict, blank=True, help_text="{language: {name, description}}")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "product categories"

    def __str__(self):
        return self.name


class Product(models.Model):
    """Something sold over the counter (a drink, a racket, a can of balls). Never deleted: `is_active` False."""

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE, related_name="products")
    category = models.ForeignKey(ProductCategory, null=True, blank=True, on_delete=models.SET_NULL)
    club = models.ForeignKey("clubs.Club", null=True, blank=True, on_delete=models.SET_NULL)
    name = models.CharField(max_length=120)
    description = models.TextField(null=True, blank=True)
    sku = models.CharField(max_length=64, null=True, blank=True)
    price = models.DecimalField(max_digits=10, decimal_places=2)
    # The revenue account the product's sales post to (null: the organization's default, resolved at sale time).
    revenue_account = models.ForeignKey("billing.RevenueAccount", null=True, blank=True, on_delete=models.PROTECT)
    track_stock = models.BooleanField(default=False)
    # The remaining stock; null exactly when the product does not track stock.
    stock_quantity = models.PositiveIntegerField(null=True, blank=True)
    is_active = models.BooleanField(default=True)
    visibility = models.CharField(max_length=12, choices=Visibility.choices, default=Visibility.PUBLIC)
    images = models.JSONField(default=list, blank=True)
    translations = models.JSONField(default=dict, blank=True, help_text="{language: {name, description}}")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["organization", "sku"],
                condition=models.Q(sku__isnull=False),
                name="product_sku_unique_per_organization",
            ),
            models.CheckConstraint(
                condition=models.Q(track_stock=True, stock_quantity__gte=0)
                | models.Q(track_stock=False, stock_quantity__isnull=True),
                name="product_stock_counted_only_when_tracked",
            ),
        ]

    def __str__(self):
        return self.name
