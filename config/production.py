"""What a production configuration (DEBUG off) must hold before a process serves anything.

Every entry point calls `refuse_development_secrets()`: `manage.py` (runserver, migrate, shell, ...),
`config.wsgi` (gunicorn), `config.asgi`, and the Celery worker and beat (signals in `config.celery`). Tests and
other in-process callers never go through those entry points, so the suite runs on the development defaults.
"""

from django.core.exceptions import ImproperlyConfigured

# The defaults in config/settings.py start with this; `django-insecure-` is what `startproject` generates.
DEVELOPMENT_PREFIXES = ("dev-only", "django-insecure-")
MIN_SECRET_LENGTH = 32
SECRET_SETTINGS = ("SECRET_KEY", "API_KEY_PEPPER")


def is_development_secret(value: str) -> bool:
    """True for an empty, too short, or development-default secret."""
    return not value or len(value) < MIN_SECRET_LENGTH or value.startswith(DEVELOPMENT_PREFIXES)


def development_secrets(settings) -> list[str]:
    """The names of the secret settings that still hold a development value."""
    return [name for name in SECRET_SETTINGS if is_development_secret(getattr(settings, name, "") or "")]


def refusal_message(settings) -> str | None:
    """One line saying why this configuration must not start, or None when it may."""
    if settings.DEBUG:
        return None
    names = development_secrets(settings)
    if not names:
        return None
    return (
        f"Refusing to start with DEBUG off: {' and '.join(names)} "
        f"{'is a development value' if len(names) == 1 else 'are development values'} "
        f"(empty, shorter than {MIN_SECRET_LENGTH} characters, or the built-in default). "
        "Set long random values in the environment (docs/deployment.md), or run `make run` once locally to write .env."
    )


def refuse_development_secrets() -> None:
    """Raise ImproperlyConfigured (one line) when DEBUG is off and a secret is a development value."""
    from django.conf import settings

    message = refusal_message(settings)
    if message:
        raise ImproperlyConfigured(message)
