"""Deployment checks (`manage.py check --deploy`): refuse to go live with the development secrets.

With DEBUG off, every entry point already refuses to start on them (config/production.py); this check also
reports them for a DEBUG-on configuration that is about to be deployed.
"""

from django.conf import settings
from django.core.checks import Error, register

from config.production import MIN_SECRET_LENGTH, is_development_secret

# (setting, check id, what else its hint says)
SECRETS = (
    ("API_KEY_PEPPER", "platform.E001", "; keep it stable (changing it invalidates every key)"),
    ("SECRET_KEY", "platform.E002", ""),
)


@register(deploy=True)
def production_secrets(app_configs, **kwargs):
    return [
        Error(
            f"{name} is a development value (empty, too short or the built-in default).",
            hint=f"Set {name} to a random value of at least {MIN_SECRET_LENGTH} characters{more}.",
            id=check_id,
        )
        for name, check_id, more in SECRETS
        if is_development_secret(getattr(settings, name))
    ]
