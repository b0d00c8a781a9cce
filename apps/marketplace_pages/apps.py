from django.apps import AppConfig


class MarketplacePagesConfig(AppConfig):
    name = "apps.marketplace_pages"
    label = "marketplace_pages"
    verbose_name = "Marketplace pages"
