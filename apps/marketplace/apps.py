from django.apps import AppConfig


class MarketplaceConfig(AppConfig):
    name = "apps.marketplace"
    label = "marketplace"
    verbose_name = "Marketplace"
