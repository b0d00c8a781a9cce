from django.apps import AppConfig


class OrganizationsConfig(AppConfig):
    name = "apps.organizations"
    label = "organizations"
    verbose_name = "Organizations and API keys"

    def ready(self):
        from . import checks  # noqa: F401  (registers the deploy checks)
