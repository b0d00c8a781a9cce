"""Sentry is initialised only when SENTRY_DSN is set, and then without personal data."""

import json
import os
import subprocess
import sys

from django.conf import settings

CODE = (
    "import django, json, sentry_sdk; django.setup(); c = sentry_sdk.get_client(); "
    "print(json.dumps({'active': c.is_active(), 'dsn': c.options.get('dsn'), "
    "'pii': c.options.get('send_default_pii'), 'traces': c.options.get('traces_sample_rate')}))"
)


def run(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SENTRY_")}
    env.update({"DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "true", **extra})
    out = subprocess.run(
        [sys.executable, "-c", CODE], env=env, capture_output=True, text=True, check=True, cwd=settings.BASE_DIR
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_not_initialised_without_a_dsn():
    assert run()["active"] is False


def test_initialised_without_personal_data_with_a_dsn():
    dsn = "https://public@errors.example.invalid/1"
    assert run(SENTRY_DSN=dsn) == {"active": True, "dsn": dsn, "pii": False, "traces": 0.0}
