"""Deployment checks (`manage.py check --deploy`): refuse to go live with the development secrets.

With DEBUG off, every entry point already refuses to start on them (config/production.py); this check also
reports them for a DEBUG-on configuration that is about to be deployed.
"""

from django.conf import settings
from django.core.checks import Error, register

from config.production import MIN_SECRET_LENGTH, is_development_secret


@register(deploy=True)
def production_secrets(app_configs, **kwargs):
    errors = []
    if is_development_secret(settings.API_KEY_PEPPER):
        errors.append(
            Error(
                "API_KEY_PEPPER is a development value (empty, too short or the built-in default).",
                hint=f"Set API_KEY_PEPPER to a random value of at least {MIN_SECRET_LENGTH} characters; keep it "
                "stable (changing it invalidates every key).",
                id="platform.E001",
            )
        )
    if is_development_secret(settings.SECRET_KEY):
        errors.append(
            Error(
                "SECRET_KEY is a development value (empty, too short or the built-in default).",
                hint=f"Set SECRET_KEY to a random value of at least {MIN_SECRET_LENGTH} characters.",
                id="platform.E002",
            )
        )
    return errors
