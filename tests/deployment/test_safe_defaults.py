"""A production configuration (DEBUG off) does not start on development secrets, serves secure cookies over TLS,
and does not get the demo seeded by accident."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from apps.organizations.management.commands import seed_demo
from apps.organizations.models import Organization
from tests.server_env import free_port

ROOT = Path(__file__).resolve().parents[2]
DEV_SECRET_KEY = "dev-only-insecure-secret-key-change-me-in-production"
DEV_PEPPER = "dev-only-api-key-pepper"
REAL_SECRET_KEY = "k" * 20 + "3f9c1b7e5a2d8c4f6e0a1b3c5d7e9f1a"
REAL_PEPPER = "p" * 20 + "8e2d4c6a0b1f3e5d7c9a1b3d5f7e9c0b"


def environment(**overrides) -> dict[str, str]:
    """This process's environment with the given values; explicit values win over a local .env."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "PYTHONPATH": str(ROOT), "LOG_LEVEL": "WARNING"}
    env.update(overrides)
    return env


def run(args, timeout=90, **env) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=ROOT, env=environment(**env), capture_output=True, text=True, timeout=timeout)


class TestEntryPointsRefuseDevelopmentSecrets:
    @pytest.mark.parametrize(
        "secret_key, pepper, named",
        [
            (DEV_SECRET_KEY, REAL_PEPPER, "SECRET_KEY is a development value"),
            (REAL_SECRET_KEY, DEV_PEPPER, "API_KEY_PEPPER is a development value"),
            (REAL_SECRET_KEY, "", "API_KEY_PEPPER is a development value"),
            ("too-short-a-secret", REAL_PEPPER, "SECRET_KEY is a development value"),
            ("django-insecure-" + "x" * 40, DEV_PEPPER, "SECRET_KEY and API_KEY_PEPPER are development values"),
        ],
    )
    def test_manage_py_exits_with_one_line(self, secret_key, pepper, named):
        result = run(
            [sys.executable, "manage.py", "check"], DEBUG="false", SECRET_KEY=secret_key, API_KEY_PEPPER=pepper
        )
        assert result.returncode != 0
        assert result.stdout == ""
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, result.stderr
        assert lines[0].startswith(f"Refusing to start with DEBUG off: {named}")

    def test_manage_py_starts_with_real_secrets(self):
        real = {"SECRET_KEY": REAL_SECRET_KEY, "API_KEY_PEPPER": REAL_PEPPER}
        result = run([sys.executable, "manage.py", "check"], DEBUG="false", **real)
        assert result.returncode == 0, result.stderr
        assert "System check identified no issues" in result.stdout

    def test_debug_on_keeps_the_development_defaults_usable(self):
        result = run([sys.executable, "manage.py", "check"], DEBUG="true", SECRET_KEY=DEV_SECRET_KEY, API_KEY_PEPPER="")
        assert result.returncode == 0, result.stderr

    def test_gunicorn_does_not_serve(self):
        port = free_port()
        result = run(
            [sys.executable, "-m", "gunicorn", "config.wsgi", "-w", "1", "-b", f"127.0.0.1:{port}"],
            DEBUG="false",
            SECRET_KEY=DEV_SECRET_KEY,
            API_KEY_PEPPER=REAL_PEPPER,
        )
        assert result.returncode != 0
        assert "Refusing to start with DEBUG off: SECRET_KEY is a development value" in result.stderr

    @pytest.mark.parametrize("process", ["worker", "beat"])
    def test_celery_does_not_start(self, process, tmp_path):
        args = [sys.executable, "-m", "celery", "-A", "config", process, "-l", "warning"]
        args += ["--pool=solo"] if process == "worker" else ["-s", str(tmp_path / "schedule")]
        result = run(args, REDIS_URL="", DEBUG="false", SECRET_KEY=REAL_SECRET_KEY, API_KEY_PEPPER=DEV_PEPPER)
        assert result.returncode != 0
        assert "Refusing to start with DEBUG off: API_KEY_PEPPER is a development value" in result.stderr

    def test_deploy_check_flags_a_short_pepper(self, settings):
        from django.core.management.base import SystemCheckError

        settings.API_KEY_PEPPER = "short"
        with pytest.raises(SystemCheckError, match="platform.E001"):
            call_command("check", "--deploy", "--fail-level", "ERROR")


# Prints what a browser is sent by GET /admin/login/: the CSRF cookie's Secure flag and the HSTS header, over
# plain HTTP and through a proxy that says the client used HTTPS.
ADMIN_LOGIN_PAGE_PROBE = """
import json, django
django.setup()
from django.test import Client
plain = Client().get("/admin/login/")
proxied = Client().get("/admin/login/", headers={"x-forwarded-proto": "https"})
print(json.dumps({
    "csrf_cookie_secure": bool(plain.cookies["csrftoken"]["secure"]),
    "hsts_via_proxy": proxied.headers.get("Strict-Transport-Security"),
}))
"""


class TestCookiesAndHttps:
    def probe(self, **env) -> dict:
        result = run(
            [sys.executable, "-c", ADMIN_LOGIN_PAGE_PROBE],
            DEBUG="false",
            SECRET_KEY=REAL_SECRET_KEY,
            API_KEY_PEPPER=REAL_PEPPER,
            **env,
        )
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout.strip().splitlines()[-1])

    def test_plain_http_locally_keeps_plain_cookies_and_ignores_forwarded_proto(self):
        assert self.probe(BASE_URL="http://127.0.0.1:8000", SECURE_HSTS_SECONDS="3600") == {
            "csrf_cookie_secure": False,
            "hsts_via_proxy": None,
        }

    def test_https_base_url_sends_secure_cookies(self):
        assert self.probe(BASE_URL="https://api.example.com") == {"csrf_cookie_secure": True, "hsts_via_proxy": None}

    def test_behind_tls_proxy_trusts_forwarded_proto_and_sends_opted_in_hsts(self):
        assert self.probe(BEHIND_TLS_PROXY="true", SECURE_HSTS_SECONDS="31536000") == {
            "csrf_cookie_secure": True,
            "hsts_via_proxy": "max-age=31536000",
        }

    def test_explicit_setting_wins(self):
        probe = self.probe(BASE_URL="https://api.example.com", CSRF_COOKIE_SECURE="false")
        assert probe["csrf_cookie_secure"] is False

    @pytest.mark.django_db(transaction=True)
    def test_admin_session_cookie_is_secure_over_tls(self):
        get_user_model().objects.create_user("ops@example.com", "ops@example.com", "a-long-password", is_staff=True)
        db = connection.settings_dict
        database_url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
        sign_in = (
            "import json, django\n"
            "django.setup()\n"
            "from django.test import Client\n"
            "client = Client(enforce_csrf_checks=False)\n"
            "response = client.post('/admin/login/', {'username': 'ops@example.com', "
            "'password': 'a-long-password', 'next': '/admin/'}, secure=True)\n"
            "print(json.dumps({'status': response.status_code, "
            "'session_cookie_secure': bool(response.cookies['sessionid']['secure'])}))\n"
        )
        result = run(
            [sys.executable, "-c", sign_in],
            DEBUG="false",
            SECRET_KEY=REAL_SECRET_KEY,
            API_KEY_PEPPER=REAL_PEPPER,
            BASE_URL="https://api.example.com",
            DATABASE_URL=database_url,
        )
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout.strip().splitlines()[-1]) == {"status": 302, "session_cookie_secure": True}


@pytest.mark.django_db
class TestSeedDemoRefusesProduction:
    def test_refused_with_debug_off(self):
        with pytest.raises(CommandError, match=r"seed_demo refuses to run with DEBUG off: .*--allow-production"):
            call_command("seed_demo")
        assert not Organization.objects.filter(slug="demo").exists()
        assert not get_user_model().objects.filter(username="demo@example.com").exists()

    def test_refusal_is_one_line_on_stderr_and_a_non_zero_exit(self, capsys):
        with pytest.raises(SystemExit) as exit_info:
            seed_demo.Command().run_from_argv(["manage.py", "seed_demo"])
        assert exit_info.value.code != 0
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err.strip().count("\n") == 0
        assert "seed_demo refuses to run with DEBUG off" in captured.err

    def test_explicit_flag_seeds(self, capsys):
        call_command("seed_demo", "--allow-production")
        assert capsys.readouterr().out.strip().splitlines()[-1].startswith("Demo API key: gpk_")
        assert Organization.objects.filter(slug="demo").exists()


class TestLocalEnvFile:
    script = str(ROOT / "scripts" / "ensure-env.sh")

    @staticmethod
    def values(path: Path) -> dict[str, str]:
        lines = [line for line in path.read_text().splitlines() if line and not line.startswith("#")]
        return dict(line.split("=", 1) for line in lines)

    def test_writes_two_fresh_random_secrets_once(self, tmp_path):
        env_file = tmp_path / ".env"
        first = run(["sh", self.script, str(env_file)])
        assert first.returncode == 0, first.stderr
        assert "SECRET_KEY and API_KEY_PEPPER" in first.stdout
        values = self.values(env_file)
        assert sorted(values) == ["API_KEY_PEPPER", "SECRET_KEY"]
        assert all(re.fullmatch(r"[0-9a-f]{64}", value) for value in values.values())
        assert values["SECRET_KEY"] != values["API_KEY_PEPPER"]
        assert env_file.stat().st_mode & 0o077 == 0  # readable by its owner only

        content = env_file.read_text()
        again = run(["sh", self.script, str(env_file)])
        assert again.returncode == 0 and again.stdout == ""
        assert env_file.read_text() == content

        other = tmp_path / "other.env"
        run(["sh", self.script, str(other)])
        assert self.values(other)["SECRET_KEY"] != values["SECRET_KEY"]

    def test_the_written_secrets_let_a_production_configuration_start(self, tmp_path):
        env_file = tmp_path / ".env"
        run(["sh", self.script, str(env_file)])
        result = run([sys.executable, "manage.py", "check"], DEBUG="false", **self.values(env_file))
        assert result.returncode == 0, result.stderr

    def test_keeps_existing_values_and_adds_only_the_missing_one(self, tmp_path):
        env_file = tmp_path / ".env"
        env_file.write_text("DEBUG=false\nSECRET_KEY=chosen-by-hand")  # no newline at the end
        result = run(["sh", self.script, str(env_file)])
        assert result.returncode == 0, result.stderr
        assert "API_KEY_PEPPER" in result.stdout and "SECRET_KEY" not in result.stdout
        values = self.values(env_file)
        assert values["DEBUG"] == "false" and values["SECRET_KEY"] == "chosen-by-hand"
        assert re.fullmatch(r"[0-9a-f]{64}", values["API_KEY_PEPPER"])
