from django.apps import AppConfig


class BillingConfig(AppConfig):
    name = "apps.billing"
    label = "billing"
    verbose_name = "Billing"

    def ready(self):
        from . import organization_setup  # noqa: F401  (connects the new organization's default sales account)
