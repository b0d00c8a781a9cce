"""Secrets for the real servers some tests start (gunicorn, Celery worker), which refuse development values."""

import secrets


def server_secrets(settings) -> dict[str, str]:
    """Fresh SECRET_KEY and API_KEY_PEPPER for a subprocess's environment.

    They are applied to this test process too (through pytest-django's `settings` fixture), so API keys issued
    here hash the same way in the server.
    """
    values = {"SECRET_KEY": secrets.token_hex(32), "API_KEY_PEPPER": secrets.token_hex(32)}
    for name, value in values.items():
        setattr(settings, name, value)
    return values
