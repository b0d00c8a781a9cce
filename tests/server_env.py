"""What the real servers some tests start (gunicorn, Celery worker) need: secrets (they refuse development values), a
free port, and a wait until they answer."""

import http.client
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings as django_settings
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent


def server_secrets(settings) -> dict[str, str]:
    """Fresh SECRET_KEY and API_KEY_PEPPER for a subprocess's environment.

    They are applied to this test process too (through pytest-django's `settings` fixture), so API keys issued
    here hash the same way in the server.
    """
    values = {"SECRET_KEY": secrets.token_hex(32), "API_KEY_PEPPER": secrets.token_hex(32)}
    for name, value in values.items():
        setattr(settings, name, value)
    return values


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_up(port: int, proc, deadline: float, path: str = "/healthz", output=None) -> None:
    """Returns once the server on `port` answers `path` (any status); raises with the end of its stderr (or of
    `output()`) if `proc` exits first, or when `deadline` (time.monotonic) passes."""
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            text = output() if output else proc.stderr.read().decode()
            raise RuntimeError(f"server exited early: {text[-3000:]}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            conn.request("GET", path)
            conn.getresponse().read()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("server did not start")


def stop(proc: subprocess.Popen) -> None:
    """Stop a server this test started: SIGTERM, then SIGKILL if it is still there after 15 s."""
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def served_database_url() -> str:
    """The URL of the database this test process uses (the test database), for a server subprocess."""
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@dataclass
class Server:
    port: int
    proc: subprocess.Popen
    log: Path  # its stderr (a file, so a chatty server never blocks on a full pipe)

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")


@contextmanager
def gunicorn(settings, *, workers: int = 1, env: dict | None = None, startup_seconds: float = 120):
    """A gunicorn with `workers` sync workers (config/gunicorn.py, as the Procfile runs it) on a free loopback port,
    serving the test database and the test Redis with fresh secrets; `env` adds or overrides variables. Yields a
    `Server`; stops it on exit."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": served_database_url(),
        "REDIS_URL": django_settings.CACHES["default"].get("LOCATION", ""),
        "LOG_LEVEL": "WARNING",
        "CELERY_TASK_ALWAYS_EAGER": "false",  # as in production: tasks go to the broker (nothing consumes them here)
        **server_secrets(settings),
        **(env or {}),
    }
    port = free_port()
    cmd = [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.wsgi", "-w", str(workers)]
    # A worker loading the app on a loaded machine can take longer than gunicorn's default 30 s, and gunicorn kills a
    # worker that stays silent that long, so the timeout is the startup allowance.
    cmd += ["-b", f"127.0.0.1:{port}", "--log-level", "warning", "--timeout", str(int(startup_seconds))]
    with tempfile.TemporaryDirectory(prefix="gunicorn-") as directory:
        log = Path(directory) / "stderr.log"
        with log.open("wb") as stderr:
            proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=stderr)
        server = Server(port, proc, log)
        try:
            # generous: a loaded machine starts gunicorn slowly
            # not /healthz: the metrics tests count its requests
            wait_until_up(port, proc, time.monotonic() + startup_seconds, path="/v1/nothing", output=server.log_text)
            yield server
        finally:
            stop(proc)
