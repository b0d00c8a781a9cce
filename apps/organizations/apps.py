from django.apps import AppConfig


class OrganizationsConfig(AppConfig):
    name = "apps.organizations"
    label = "organizations"
    verbose_name = "Organizations and API keys"

    def ready(self):
        from . import api_keys, checks  # noqa: F401  (checks registers the deploy checks)

        api_keys.register()
