from django.apps import AppConfig


class WebsiteConfig(AppConfig):
    name = "apps.website"
    label = "website"
    verbose_name = "Website"

    def ready(self):
        from . import organization_setup  # noqa: F401 - connects the default website receiver
