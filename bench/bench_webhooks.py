"""Webhooks: delivery throughput of one worker, and the delay from commit to receipt at 50 events/s.

Standalone: `make bench` provides DATABASE_URL/REDIS_URL (PostgreSQL + Redis), or run it directly:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/platform_bench REDIS_URL=redis://127.0.0.1:6379/14 \
        python bench/bench_webhooks.py --events 2000 --rate 50 --seconds 10

The whole path is real: events are recorded through the outbox (`emit_many` in a transaction), relayed after the
commit into deliveries queued on Redis (a relayed batch as `deliver_many` tasks of up to 25), and delivered by
ONE Celery worker process (`-Q webhooks --pool=solo`, a subprocess; BENCH_WEBHOOK_POOL=prefork to compare)
through the hardened client to a receiver on loopback that records when each `webhook-id` arrives.

1. Throughput: `--events` events are recorded first (one subscription, so one delivery each), then the worker
   starts; events/s = deliveries received / (last receipt - first receipt). Target >= 200.
2. Latency: with the worker running, one event per transaction at `--rate` per second for `--seconds`; the delay is
   receipt time - commit time (stamped by the first on-commit hook, before the relay runs). Target p99 < 1 s.
Bounded: each phase gives up after 90 s and reports what arrived.
"""

import argparse
import os
import secrets
import statistics
import subprocess
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
os.environ["CELERY_TASK_ALWAYS_EAGER"] = "false"  # deliveries go to the worker through Redis
os.environ["WEBHOOK_ALLOW_PRIVATE_NETWORKS"] = "true"  # the receiver is on loopback
os.environ.setdefault("SECRET_KEY", secrets.token_hex(32))
os.environ.setdefault("API_KEY_PEPPER", secrets.token_hex(32))

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402

from apps.api.scopes import ALL_SCOPES  # noqa: E402
from apps.domain_events.models import DomainEvent  # noqa: E402
from apps.domain_events.services import emit_many  # noqa: E402
from apps.organizations.models import Organization  # noqa: E402
from apps.webhooks import signing  # noqa: E402
from apps.webhooks.models import WebhookSubscription  # noqa: E402
from bench.table import emit  # noqa: E402
from config import celery_app  # noqa: E402

TIMEOUT = 90
received: dict[str, float] = {}
lock = threading.Lock()


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        now = time.time()
        with lock:
            received.setdefault(self.headers["webhook-id"], now)
        self.send_response(204)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def start_receiver() -> str:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/hook"


def start_worker() -> subprocess.Popen:
    env = {**os.environ, "CONN_MAX_AGE": "60", "LOG_LEVEL": "WARNING"}
    pool = os.environ.get("BENCH_WEBHOOK_POOL", "solo")  # solo: the one worker process does the deliveries itself
    cmd = [sys.executable, "-m", "celery", "-A", "config", "worker", f"--pool={pool}", "-c", "1"]
    cmd += ["-Q", settings.WEBHOOK_QUEUE]
    cmd += ["-l", "warning", "--without-gossip", "--without-mingle", "--without-heartbeat"]
    cmd += ["-n", f"bench-webhooks-{os.getpid()}@%h"]
    return subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def setup(url: str) -> Organization:
    run = uuid.uuid4().hex[:8]
    organization = Organization.objects.create(
        name=f"Bench webhooks {run}", slug=f"bench-webhooks-{run}", currency="EUR", plan="pro"
    )
    WebhookSubscription.objects.create(
        organization=organization, url=url, events=["*"], scopes=list(ALL_SCOPES), secret=signing.new_secret()
    )
    return organization


def record(organization, n: int, stamps: dict | None = None) -> list[str]:
    """n events in one transaction; `stamps[id]` = the commit time when given."""
    with transaction.atomic():
        moment: list[float] = []
        transaction.on_commit(lambda: moment.append(time.time()))  # first hook: runs before the relay's
        emit_many(organization, [("contact.updated", {"id": i, "firstName": "Bench"}, ["firstName"]) for i in range(n)])
        ids = list(
            DomainEvent.objects.filter(organization=organization, sequence__isnull=True).values_list("id", flat=True)
        )
    if stamps is not None:
        for event_id in ids:
            stamps[event_id] = moment[0]
    return ids


def wait_for(ids, seconds=TIMEOUT) -> None:
    deadline = time.monotonic() + seconds
    wanted = set(ids)
    while time.monotonic() < deadline:
        with lock:
            if wanted <= received.keys():
                return
        time.sleep(0.05)


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--rate", type=float, default=50.0)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    celery_app.conf.task_always_eager = False
    with celery_app.connection_for_write() as conn:
        conn.default_channel.queue_purge(settings.WEBHOOK_QUEUE)
    organization = setup(start_receiver())

    # 1. throughput: a backlog, then one worker drains it
    backlog = []
    for start in range(0, args.events, 200):
        backlog += record(organization, min(200, args.events - start))
    worker = start_worker()
    try:
        wait_for(backlog)
        with lock:
            times = sorted(received[i] for i in backlog if i in received)
        span = times[-1] - times[0] if len(times) > 1 else float("nan")
        throughput = (len(times) - 1) / span if len(times) > 1 else 0.0

        # 2. latency at a steady rate
        stamps: dict[str, float] = {}
        interval = 1 / args.rate
        began = time.monotonic()
        sent = 0
        while time.monotonic() - began < args.seconds:
            record(organization, 1, stamps)
            sent += 1
            time.sleep(max(0.0, began + sent * interval - time.monotonic()))
        wait_for(stamps)
    finally:
        worker.terminate()
        worker.wait(timeout=30)
    with lock:
        delays = [(received[i] - stamps[i]) * 1000 for i in stamps if i in received]

    pool = os.environ.get("BENCH_WEBHOOK_POOL", "solo")
    load = os.getloadavg()[0]
    print(f"one worker process ({pool}, 1), receiver on loopback, Redis broker; load average {load:.1f}")
    print(f"{'measure':<48} {'value':>12}  target")
    print(f"{'throughput, ' + str(len(times)) + '/' + str(len(backlog)) + ' delivered':<48} "
          f"{throughput:>8.0f} ev/s  >= 200")  # fmt: skip
    print(f"{'commit to receipt at ' + f'{args.rate:g}' + '/s, ' + str(len(delays)) + '/' + str(len(stamps)):<48} "
          f"p50 {statistics.median(delays) if delays else float('nan'):>6.0f} ms")  # fmt: skip
    print(f"{'':<48} p99 {percentile(delays, 99):>6.0f} ms  < 1000")
    emit(
        row="webhook-throughput",
        label=f"{len(backlog)} recorded events drained by one worker",
        rps=throughput,
        ref_label="target",
        ref_rps=200,
        note="events/s between the first and the last receipt",
    )
    emit(
        row="webhook-latency",
        label=f"commit to receipt at {args.rate:g} events/s",
        p50=statistics.median(delays) if delays else None,
        p99=percentile(delays, 99) if delays else None,
        ref_label="target",
        ref_p99=1000,
        note=f"{len(delays)}/{len(stamps)} received",
    )
    if len(times) < len(backlog) or len(delays) < len(stamps):
        raise SystemExit("some deliveries did not arrive within the time limit")


if __name__ == "__main__":
    main()
