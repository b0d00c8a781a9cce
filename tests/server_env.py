"""What the real servers some tests start (gunicorn, Celery worker) need: secrets (they refuse development values), a
free port, and a wait until they answer."""

import http.client
import secrets
import socket
import time


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


def wait_until_up(port: int, proc, deadline: float, path: str = "/healthz") -> None:
    """Returns once the server on `port` answers `path` (any status); raises with the end of its stderr if `proc`
    exits first, or when `deadline` (time.monotonic) passes."""
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited early: {proc.stderr.read().decode()[-3000:]}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            conn.request("GET", path)
            conn.getresponse().read()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("server did not start")
