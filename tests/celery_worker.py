"""A real Celery worker (a subprocess on the test database and the Redis broker) for the `worker` tests."""

import os
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from config import celery_app
from tests.server_env import served_database_url, server_secrets, stop

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def real_worker(settings, name: str, queues=("celery",), env=None, processes: int = 0):
    """Start a worker consuming `queues`, with tasks sent to the broker instead of run eagerly and those queues
    emptied first; `env` adds environment variables (settings) of the worker; `processes` > 0 runs that many prefork
    children instead of the solo pool. Yields the worker process. Stops it and restores eager tasks on exit."""
    broker = settings.CELERY_BROKER_URL
    assert broker.startswith("redis://"), "the worker test needs REDIS_URL"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": served_database_url(),
        "REDIS_URL": broker,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "CONN_MAX_AGE": "0",
        **server_secrets(settings),
        **(env or {}),
    }
    # Read the app's setting before changing Django's: Celery loads its lazy config from Django settings.
    previous_eager = celery_app.conf.task_always_eager
    settings.CELERY_TASK_ALWAYS_EAGER = False
    celery_app.conf.task_always_eager = False
    celery_app.conf.broker_url = broker
    pool = ["--pool=prefork", "-c", str(processes)] if processes else ["--pool=solo"]
    cmd = [sys.executable, "-m", "celery", "-A", "config", "worker", *pool, "-l", "warning"]
    cmd += ["--without-gossip", "--without-mingle", "--without-heartbeat", "-n", f"{name}-{os.getpid()}@%h"]
    cmd += ["-Q", ",".join(queues)]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        with celery_app.connection_for_write() as conn:
            for queue in queues:
                conn.default_channel.queue_purge(queue)
        yield proc
    finally:
        celery_app.conf.task_always_eager = previous_eager
        stop(proc)


def wait_until(done, proc, seconds: float = 60) -> None:
    """Poll `done()` until it holds or `seconds` pass; fails at once with the worker's output if it died."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not done():
        assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
        time.sleep(0.5)
