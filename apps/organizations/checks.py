"""Deployment checks (`manage.py check --deploy`): refuse to go live with the development secrets."""

from django.conf import settings
from django.core.checks import Error, register

DEV_SECRET_PREFIX = "dev-only"


@register(deploy=True)
def production_secrets(app_configs, **kwargs):
    errors = []
    if settings.API_KEY_PEPPER.startswith(DEV_SECRET_PREFIX):
        errors.append(
            Error(
                "API_KEY_PEPPER is the development default.",
                hint="Set API_KEY_PEPPER to a long random value; keep it stable (changing it invalidates every key).",
                id="platform.E001",
            )
        )
    if settings.SECRET_KEY.startswith(DEV_SECRET_PREFIX):
        errors.append(
            Error(
                "SECRET_KEY is the development default.",
                hint="Set SECRET_KEY to a long random value.",
                id="platform.E002",
            )
        )
    return errors
