"""`manage.py check --deploy` refuses the development secrets."""

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError


def test_deploy_check_flags_development_secrets(settings):
    settings.API_KEY_PEPPER = "dev-only-api-key-pepper"
    with pytest.raises(SystemCheckError, match="platform.E001"):
        call_command("check", "--deploy", "--fail-level", "ERROR")


def test_deploy_check_passes_our_checks_with_real_secrets(settings, capsys):
    settings.API_KEY_PEPPER = "a-real-pepper-" + "x" * 40
    settings.SECRET_KEY = "a-real-secret-" + "y" * 50
    try:
        call_command("check", "--deploy", "--fail-level", "ERROR")
    except SystemCheckError as exc:
        assert "platform.E00" not in str(exc)
