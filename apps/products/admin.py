from django.contrib import admin

from apps.organizations.admin_scoping import OrganizationScopedAdmin

from .models import Product, ProductCategory


@admin.register(ProductCategory)
class ProductCategoryAdmin(OrganizationScopedAdmin):
    list_display = ("name", "organization", "position", "created_at")
    list_filter = ("organization",)
    search_fields = ("name",)


@admin.register(Product)
class ProductAdmin(OrganizationScopedAdmin):
    list_display = ("name", "organization", "sku", "category", "price", "track_stock", "stock_quantity", "is_active")
    list_filter = ("organization", "is_active", "track_stock", "category")
    search_fields = ("name", "sku")
    list_select_related = ("organization", "category")
