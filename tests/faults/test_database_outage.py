"""PostgreSQL going away under load: every request the outage hits is a 503 `SERVICE_UNAVAILABLE` in the error
envelope (never a 500, never a dropped connection), nothing is half-written, and the same gunicorn workers serve
again as soon as the database is back, without a restart.

The outage is cut between one gunicorn and the shared PostgreSQL by a loopback proxy this test owns
(tests/faults/tcp_proxy.py): its server connections are terminated (`pg_terminate_backend`, the FATAL 57P01 a
restarting server sends, for this gunicorn's backends only, found by their `application_name`), and new
connections are closed as soon as they open, as a server that is shutting down or starting answers them. The
shared PostgreSQL itself is never stopped, and a proxy is faster and more deterministic than a throwaway cluster."""

import http.client
import threading
import time
from pathlib import Path

import orjson
import pytest
from django.db import connection

from apps.api.exceptions import ServiceUnavailable
from apps.contacts.models import Contact
from tests.faults.tcp_proxy import TcpProxy
from tests.server_env import gunicorn

pytestmark = pytest.mark.django_db(transaction=True)

CLIENTS = 4
HEALTHY_SECONDS, OUTAGE_SECONDS, RECOVERY_LIMIT_SECONDS = 1.0, 2.5, 45.0  # generous for a loaded machine
UNAVAILABLE = {
    "error": "Service Unavailable",
    "message": ServiceUnavailable.default_message,
    "code": "SERVICE_UNAVAILABLE",
}


def call(port: int, token: str, method: str, path: str, body: dict | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        conn.request(method, path, body=orjson.dumps(body) if body is not None else None, headers=headers)
        response = conn.getresponse()
        return response.status, response.read(), dict(response.getheaders())
    finally:
        conn.close()


def worker_pids(master_pid: int) -> set[int]:
    children = Path(f"/proc/{master_pid}/task/{master_pid}/children").read_text().split()
    return {int(pid) for pid in children}


@pytest.fixture
def proxied_server(settings):
    db = connection.settings_dict
    proxy = TcpProxy((db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432)))
    application_name = f"faults-outage-{proxy.port}"
    url = f"postgres://{db['USER']}@127.0.0.1:{proxy.port}/{db['NAME']}?application_name={application_name}"
    env = {"DATABASE_URL": url, "RATE_LIMIT_MULTIPLIER": "100", "CONN_MAX_AGE": "60", "CONN_HEALTH_CHECKS": "true"}
    try:
        with gunicorn(settings, workers=2, env=env) as server:
            yield server, proxy, application_name
    finally:
        proxy.stop()


def terminate_backends(application_name: str) -> int:
    """End this server's PostgreSQL sessions (those of the test database that carry its application name)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND application_name = %s",
            [application_name],
        )
        return cursor.fetchone()[0]


def test_an_outage_answers_503_in_the_envelope_and_the_workers_recover_without_a_restart(
    proxied_server, make_token, organization
):
    server, proxy, application_name = proxied_server
    token = make_token("*")  # after the server started: hashed with its pepper
    workers = worker_pids(server.proc.pid)
    phase = {"now": "healthy"}
    answers: list[tuple[str, str, int, bytes, dict, str | None]] = []
    failures: list[BaseException] = []
    stop = threading.Event()

    def client(n: int) -> None:
        i = 0
        try:
            while not stop.is_set() and i < 2000:
                i += 1
                email = f"c{n}-{i}@example.com"
                seen = phase["now"]
                if i % 2:
                    status, body, headers = call(
                        server.port, token, "POST", "/v1/platform/contacts", {"firstName": "Ana", "email": email}
                    )
                else:
                    status, body, headers = call(server.port, token, "GET", "/v1/platform/contacts?limit=5")
                    email = None
                answers.append((seen, phase["now"], status, body, headers, email))
        except BaseException as exc:  # a dropped connection or a timeout is a failure of the test
            failures.append(exc)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    try:
        time.sleep(HEALTHY_SECONDS)
        deadline = time.monotonic() + 30  # a loaded machine: at least a few answers before the outage
        while len(answers) < CLIENTS and time.monotonic() < deadline:
            time.sleep(0.1)
        phase["now"] = "outage"
        assert terminate_backends(application_name) >= 1  # the workers held persistent connections
        proxy.cut()
        time.sleep(OUTAGE_SECONDS / 2)
        ready_during = call(server.port, token, "GET", "/readyz")[0]
        time.sleep(OUTAGE_SECONDS / 2)
        phase["now"] = "restored"
        proxy.restore()
        restored_at = len(answers)
        deadline = time.monotonic() + RECOVERY_LIMIT_SECONDS
        while time.monotonic() < deadline:  # recovered: the last dozen answers since the restore all succeeded
            recent = [a[2] for a in answers[restored_at:] if a[0] == "restored"][-12:]
            if len(recent) == 12 and all(status < 300 for status in recent):
                break
            time.sleep(0.2)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
    assert not failures, failures
    statuses = {a[2] for a in answers}
    assert statuses <= {200, 201, 503}, (statuses, server.log_text())
    assert all(a[2] < 300 for a in answers if a[1] == "healthy"), "failures before the outage"
    unavailable = [a for a in answers if a[2] == 503]
    assert unavailable, "no request met the outage"
    for _, _, _, body, headers, _ in unavailable:
        assert orjson.loads(body) == UNAVAILABLE
        assert headers["Retry-After"] == "5" and headers["X-Request-Id"]
    recent = [a[2] for a in answers if a[0] == "restored"][-12:]
    since_restore = [(a[0], a[2]) for a in answers[restored_at:]]
    assert len(recent) == 12 and all(status < 300 for status in recent), (
        recent,
        since_restore[-40:],
        server.log_text(),
    )
    assert ready_during == 503 and call(server.port, token, "GET", "/readyz")[0] == 200
    assert worker_pids(server.proc.pid) == workers  # the same processes: nothing was restarted

    # Nothing half-written: every 201 is stored; a 503 write is stored only if its commit got through unanswered.
    created = {a[5] for a in answers if a[5] and a[2] == 201}
    refused = {a[5] for a in answers if a[5] and a[2] == 503}
    stored = set(Contact.objects.filter(organization=organization).values_list("email", flat=True))
    assert created <= stored <= created | refused
    log = server.log_text()
    assert "Database unreachable, answering 503" in log
    # The whole log: the line that matters may be anywhere among hundreds of 503 lines.
    assert "Unhandled error" not in log and "Traceback" not in log, log
