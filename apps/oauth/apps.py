from django.apps import AppConfig


class OAuthConfig(AppConfig):
    name = "apps.oauth"
    label = "oauth"
    verbose_name = "OAuth clients and grants"

    def ready(self):
        from . import authentication  # noqa: F401  (registers the OAuth access token as a bearer credential)
