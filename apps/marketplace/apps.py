from django.apps import AppConfig


class MarketplaceConfig(AppConfig):
    name = "apps.marketplace"
    label = "marketplace"
    verbose_name = "Marketplace"

    def ready(self):
        from . import freshness  # noqa: PLC0415 - models must be registered before the receivers connect

        freshness.connect()
