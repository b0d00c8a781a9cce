"""Benchmark of the Platform API plumbing: `make bench`.

1. Creates the bench database if missing (DATABASE_URL, PostgreSQL), migrates it, seeds an organization, a
   full-access key and 200 contacts.
2. Captures the API's responses for GET /v1/platform/me and a 200-row list, so that bare Django views can
   return the very same bytes from memory (bench/urls.py).
3. Starts gunicorn (config.wsgi with DJANGO_SETTINGS_MODULE=bench.settings, 2 sync workers) on a free
   loopback port and drives it with a small keep-alive load generator (threads + http.client), bounded in
   requests and time.
4. Prints requests/second, p50 and p99 for each API endpoint beside its bare twin, and the ratio.
5. Runs every `bench/bench_*.py` scenario script with the same environment.

Rows: `me`, `list` (200 contacts), `classes` (a page of 100 classes), then the MCP server (`mcp`: a
`classes_list` tool call beside the same REST request, and `tools/list`), and over a year of a large
organization's transactions (`bench-ledger`, `LEDGER_ROWS` generated once with SQL): `transactions` (the list,
200 per page, over the whole year) and `revenue` (the revenue report over 366 days grouped by month).

Environment: DATABASE_URL, REDIS_URL (as the Makefile sets them); BENCH_REQUESTS (per measurement, default
3000), BENCH_SECONDS (cap per measurement, default 15), BENCH_CONCURRENCY (default 8), BENCH_WORKER_CLASS
(`sync`, the default, as production runs, or `gthread` with BENCH_THREADS threads per worker); BENCH_ONLY (a comma list
of row names, e.g. `transactions,revenue`: only those rows, and no scenario scripts).
"""

import http.client
import os
import secrets
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.seed_scale import TRANSACTIONS_SQL  # noqa: E402
from bench.table import (  # noqa: E402
    BENCH_DIR,
    Row,
    collect,
    draw_svg,
    measured,
    print_table,
    reset_worker_peaks,
    worker_peak_mib,
    write_markdown,
)

os.environ["DJANGO_SETTINGS_MODULE"] = "bench.settings"
os.environ.setdefault("RATE_LIMIT_MULTIPLIER", "100000")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/platform_bench")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/14")
os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "true")
os.environ.setdefault("BENCH_CAPTURE_DIR", str(Path(os.environ.get("TMPDIR", "/tmp")) / "platform-bench"))
os.environ.setdefault("LOG_LEVEL", "WARNING")
# gunicorn refuses development secrets with DEBUG off; this process and the server it starts share these.
os.environ.setdefault("SECRET_KEY", secrets.token_hex(32))
os.environ.setdefault("API_KEY_PEPPER", secrets.token_hex(32))

REQUESTS = int(os.environ.get("BENCH_REQUESTS", "3000"))
SECONDS = float(os.environ.get("BENCH_SECONDS", "15"))
CONCURRENCY = int(os.environ.get("BENCH_CONCURRENCY", "8"))
WORKERS = int(os.environ.get("BENCH_WORKERS", "2"))
THREADS = int(os.environ.get("BENCH_THREADS", "4"))
# `sync` (production's Procfile: one request at a time per worker) or `gthread` (BENCH_THREADS per worker).
WORKER_CLASS = os.environ.get("BENCH_WORKER_CLASS", "sync")
LIST_ROWS = 200
CLASS_ROWS = 120  # `classes`: a page of 100 of them
LEDGER_ROWS = int(os.environ.get("BENCH_LEDGER_ROWS", "120000"))
ONLY = {name for name in os.environ.get("BENCH_ONLY", "").split(",") if name}


def ensure_database():
    """CREATE DATABASE when the bench database does not exist yet."""
    import environ
    import psycopg

    config = environ.Env.db_url_config(os.environ["DATABASE_URL"])
    if config["ENGINE"] != "django.db.backends.postgresql":
        return
    admin = psycopg.connect(
        dbname="postgres",
        user=config.get("USER") or None,
        password=config.get("PASSWORD") or None,
        host=config.get("HOST") or None,
        port=config.get("PORT") or None,
        autocommit=True,
    )
    with admin:
        exists = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [config["NAME"]]).fetchone()
        if not exists:
            admin.execute(f'CREATE DATABASE "{config["NAME"]}"')
            print(f"created database {config['NAME']}")


def seed_website(organization) -> str:
    """The organization's website published with a homepage of live sections; returns its host."""
    import datetime as dt
    from decimal import Decimal

    from django.utils import timezone

    from apps.billing.models import Plan
    from apps.classes.models import ClassOccurrence
    from apps.clubs.models import Club
    from apps.website import services as website_services
    from apps.website.models import Page

    website = website_services.ensure_default_website(organization)
    club, _ = Club.objects.get_or_create(
        organization=organization, slug="bench-club", defaults={"name": "Bench club", "timezone": "Europe/Madrid"}
    )
    if not Plan.objects.filter(organization=organization).exists():
        Plan.objects.bulk_create(
            Plan(organization=organization, name=f"Plan {i}", price=Decimal("30") + i) for i in range(6)
        )
    if not ClassOccurrence.objects.filter(organization=organization).exists():
        start = timezone.now().replace(minute=0, second=0, microsecond=0) + dt.timedelta(hours=2)
        ClassOccurrence.objects.bulk_create(
            ClassOccurrence(
                organization=organization,
                club=club,
                name=f"Class {i}",
                start_time=start + dt.timedelta(hours=3 * i),
                end_time=start + dt.timedelta(hours=3 * i + 1),
            )
            for i in range(40)
        )
    sections = [
        {"type": "hero", "config": {"title": "Bench Gym", "subtitle": "Courts and classes"}},
        {"type": "text", "config": {"heading": "About", "body": "<p>" + "Text. " * 200 + "</p>"}},
        {"type": "plans", "config": {"showFeatures": True}},
        {"type": "class-schedule", "config": {"days": 7}},
        {"type": "contact", "config": {}},
    ]
    if not Page.objects.filter(website=website).exists():
        website_services.create_page(website, {"slug": "home", "title": "Home", "sections": sections})
        website_services.publish(website, note="bench", published_by=("user", "bench"))
    return f"{website.slug}.sites.localhost"


def seed() -> tuple[str, str]:
    """Organization, key and list rows; returns (token, list path)."""
    from django.core.management import call_command

    from apps.contacts.models import Contact
    from apps.organizations.models import ApiKey, Organization

    call_command("migrate", verbosity=0, interactive=False)
    organization, _ = Organization.objects.get_or_create(
        slug="bench-org", defaults={"name": "Bench Gym", "currency": "EUR", "plan": "pro", "timezone": "Europe/Madrid"}
    )
    ApiKey.objects.filter(organization=organization, name="bench").delete()
    _, token = ApiKey.issue(organization=organization, name="bench", scopes=["*"])
    missing = LIST_ROWS - Contact.objects.filter(organization=organization).count()
    if missing > 0:
        Contact.objects.bulk_create(
            Contact(organization=organization, first_name=f"Bench{i}", last_name="Runner", email=f"b{i}@example.com")
            for i in range(missing)
        )
    list_path = f"/v1/platform/contacts?limit={LIST_ROWS}"
    return token, list_path


def seed_classes(organization) -> None:
    """At least `CLASS_ROWS` upcoming classes (after the website's 40), each taught by one of five instructors."""
    import datetime as dt

    from django.utils import timezone

    from apps.classes.models import ClassOccurrence
    from apps.clubs.models import Club
    from apps.contacts.models import Contact
    from apps.instructors.models import Instructor

    missing = CLASS_ROWS - ClassOccurrence.objects.filter(organization=organization).count()
    if missing <= 0:
        return
    club = Club.objects.get(organization=organization, slug="bench-club")
    instructors = [
        Instructor.objects.create(
            organization=organization, contact=Contact.objects.create(organization=organization, first_name=f"Coach{i}")
        )
        for i in range(5)
    ]
    start = timezone.now().replace(minute=0, second=0, microsecond=0) + dt.timedelta(days=30)
    classes = ClassOccurrence.objects.bulk_create(
        ClassOccurrence(organization=organization, club=club, name=f"Bench class {i}", max_capacity=20,
                        start_time=start + dt.timedelta(hours=2 * i), end_time=start + dt.timedelta(hours=2 * i + 1))
        for i in range(missing)
    )  # fmt: skip
    for i, occurrence in enumerate(classes):
        occurrence.instructors.add(instructors[i % len(instructors)])


def seed_ledger() -> tuple[str, str, str]:
    """A large organization with a year of transactions (`LEDGER_ROWS`, generated once in SQL: charges at two
    clubs on three revenue accounts, some outside revenue, refunds and voids); returns (token, start, end) with
    the 366 days ending yesterday."""
    import datetime as dt

    from django.db import connection
    from django.utils import timezone

    from apps.billing.models import RevenueAccount
    from apps.clubs.models import Club
    from apps.organizations.models import ApiKey, Organization
    from apps.transactions.models import RevenueSum, Transaction

    organization, _ = Organization.objects.get_or_create(
        slug="bench-ledger",
        defaults={"name": "Bench Ledger", "currency": "EUR", "plan": "pro", "timezone": "Europe/Madrid"},
    )
    ApiKey.objects.filter(organization=organization, name="bench").delete()
    _, token = ApiKey.issue(organization=organization, name="bench", scopes=["*"])
    end = timezone.now().date() - dt.timedelta(days=1)
    start = end - dt.timedelta(days=365)
    if Transaction.objects.filter(organization=organization).count() < LEDGER_ROWS:
        Transaction.objects.filter(organization=organization).delete()
        clubs = [
            Club.objects.get_or_create(organization=organization, slug=slug, defaults={"name": slug})[0].id
            for slug in ("ledger-north", "ledger-south")
        ]
        accounts = [
            RevenueAccount.objects.get_or_create(organization=organization, name=name)[0].id
            for name in ("Courts", "Classes", "Shop")
        ]
        first = dt.datetime.combine(start, dt.time(7), tzinfo=dt.UTC)
        step = 365 * 86400 / LEDGER_ROWS
        with connection.cursor() as cursor:
            cursor.execute(
                TRANSACTIONS_SQL,
                {"org": organization.id, "clubs": clubs, "accounts": accounts, "year_start": first, "year_step": step,
                 "lo": 0, "hi": LEDGER_ROWS - 1, "label": "Bench", "contacts": 0, "contact_base": 0},
            )  # fmt: skip
            for table in (Transaction._meta.db_table, RevenueSum._meta.db_table):  # the report reads the kept sums
                cursor.execute(f"VACUUM ANALYZE {table}")
        print(f"generated {LEDGER_ROWS} transactions over a year for bench-ledger")
    return token, start.isoformat(), end.isoformat()


def capture(paths: dict[str, tuple[str, dict]]) -> dict[str, int]:
    """Store the API's (or a website's) response bytes for the bare views; returns the SQL queries each request
    ran (in process, after one warm-up request)."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    capture_dir = Path(os.environ["BENCH_CAPTURE_DIR"])
    capture_dir.mkdir(parents=True, exist_ok=True)
    queries = {}
    for name, (path, headers) in paths.items():
        Client().get(path, headers=headers)
        with CaptureQueriesContext(connection) as captured:
            response = Client().get(path, headers=headers)
        if response.status_code != 200:
            raise SystemExit(f"{path} answered {response.status_code}: {response.content[:300]!r}")
        (capture_dir / f"{name}.json").write_bytes(response.content)
        queries[name] = len(captured)
    return queries


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int) -> subprocess.Popen:
    cmd = [
        sys.executable, "-m", "gunicorn", "config.wsgi",
        "-w", str(WORKERS), "-k", WORKER_CLASS, *(["--threads", str(THREADS)] if WORKER_CLASS == "gthread" else []),
        "-b", f"127.0.0.1:{port}", "--log-level", "warning", "--keep-alive", "30",
    ]  # fmt: skip
    proc = subprocess.Popen(cmd, cwd=ROOT, env=os.environ.copy())
    deadline = time.monotonic() + 90  # a loaded 2-core machine imports slowly
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit("gunicorn exited during start-up")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            conn.request("GET", "/bench/bare/me")
            conn.getresponse().read()
            return proc
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise SystemExit("gunicorn did not start")


def load(
    port: int,
    path: str | list[str],
    headers: dict,
    total: int,
    seconds: float,
    concurrency: int,
    method: str = "GET",
    bodies: list[bytes] | None = None,
) -> dict:
    """Issue up to `total` requests (or stop after `seconds`) over `concurrency` keep-alive connections: GETs, or
    `method` with each body of `bodies` in turn; `path` may be a list, requested in turn."""
    paths = path if isinstance(path, list) else [path]
    latencies: list[float] = []
    sent = [0]
    errors = []
    lock = threading.Lock()
    remaining = [total]
    stop_at = time.monotonic() + seconds

    def worker():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine = []
        while True:
            with lock:
                if remaining[0] <= 0:
                    break
                remaining[0] -= 1
                body = bodies[sent[0] % len(bodies)] if bodies else None
                target = paths[sent[0] % len(paths)]
                sent[0] += 1
            if time.monotonic() > stop_at:
                break
            started = time.perf_counter()
            try:
                conn.request(method, target, body=body, headers=headers)
                response = conn.getresponse()
                response.read()
                if response.status != 200:
                    errors.append(response.status)
                if response.getheader("Connection", "").lower() == "close":
                    conn.close()
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            except (OSError, http.client.HTTPException) as exc:
                errors.append(repr(exc))
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                continue
            mine.append(time.perf_counter() - started)
        conn.close()
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    began = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - began
    latencies.sort()
    count = len(latencies)
    return {
        "requests": count,
        "errors": len(errors),
        "rps": count / elapsed if elapsed else 0.0,
        "p50": statistics.median(latencies) * 1000 if latencies else 0.0,
        "p99": latencies[min(count - 1, int(count * 0.99))] * 1000 if latencies else 0.0,
    }


def measure_pair(port: int, master_pid: int, api_path: str, headers: dict, bare_name: str) -> tuple[dict, dict]:
    """Warm up, then the API path and its bare twin (`/bench/bare/<bare_name>`), each with the peak memory of the
    server's workers during its measurement (`memory_mib`)."""
    bare_path = f"/bench/bare/{bare_name}"
    load(port, api_path, headers, 300, 10, CONCURRENCY)  # warm up: connections, caches, imports
    load(port, bare_path, {}, 300, 10, CONCURRENCY)
    results = []
    for path, path_headers in ((api_path, headers), (bare_path, {})):
        reset_worker_peaks(master_pid)
        result = load(port, path, path_headers, REQUESTS, SECONDS, CONCURRENCY)
        result["memory_mib"] = worker_peak_mib(master_pid)
        results.append(result)
    return results[0], results[1]


MCP_PATH = "/mcp/admin"
MCP_TARGET = 1.2  # a tool call may cost at most 1.2x its REST call


def mcp_request(method: str, params: dict, name: str | None = None) -> tuple[bytes, dict]:
    """A 2026-07-28 request as the official SDK sends it: the `_meta` envelope and the routing headers."""
    import json

    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": {**params, "_meta": meta}}).encode()
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
               "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method}  # fmt: skip
    if name:
        headers["Mcp-Name"] = name
    return body, headers


def load_interleaved(port: int, kinds: dict[str, tuple], total: int, seconds: float, concurrency: int) -> dict:
    """Like `load`, but each client thread sends the kinds of request in turn on its connection (`kinds`: name ->
    (method, path, headers, body)), so they share the same moments of a noisy machine; latencies per kind."""
    names = list(kinds)
    latencies: dict[str, list[float]] = {name: [] for name in names}
    errors: dict[str, int] = {name: 0 for name in names}
    lock = threading.Lock()
    remaining = [total]
    stop_at = time.monotonic() + seconds

    def worker(offset: int):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        turn = offset
        while True:
            with lock:
                if remaining[0] <= 0:
                    break
                remaining[0] -= 1
            if time.monotonic() > stop_at:
                break
            name = names[turn % len(names)]
            turn += 1
            method, path, headers, body = kinds[name]
            started = time.perf_counter()
            try:
                conn.request(method, path, body=body, headers=headers)
                response = conn.getresponse()
                response.read()
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                with lock:
                    errors[name] += 1
                continue
            took = time.perf_counter() - started
            with lock:
                if response.status != 200:
                    errors[name] += 1
                latencies[name].append(took)
        conn.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(concurrency)]
    began = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - began
    results = {}
    for name in names:
        values = sorted(latencies[name])
        count = len(values)
        results[name] = {
            "requests": count,
            "errors": errors[name],
            "rps": count / elapsed if elapsed else 0.0,
            "p50": statistics.median(values) * 1000 if values else 0.0,
            "p99": values[min(count - 1, int(count * 0.99))] * 1000 if values else 0.0,
            "mean": statistics.fmean(values) * 1000 if values else 0.0,
        }
    return results


def measure_mcp(port: int, master_pid: int, auth: dict) -> list[Row]:
    """The MCP server beside the same REST call, in the same server and the same run: every client thread sends
    `GET /v1/platform/classes?limit=50` (a page of 40 classes) and the `classes_list` tool call with the same
    arguments in turn, so both meet the same load; then `tools/list` beside a bare view."""
    rest_path = "/v1/platform/classes?limit=50"
    call_body, call_headers = mcp_request("tools/call", {"name": "classes_list", "arguments": {"limit": 50}},
                                          "classes_list")  # fmt: skip
    list_body, list_headers = mcp_request("tools/list", {})
    call_headers.update(auth)
    list_headers.update(auth)
    # Warm up (each worker builds its tool catalogue at start, in the background).
    load(port, MCP_PATH, list_headers, 200, 30, CONCURRENCY, method="POST", bodies=[list_body])
    kinds = {"rest": ("GET", rest_path, auth, None), "tool": ("POST", MCP_PATH, call_headers, call_body)}
    load_interleaved(port, kinds, 200, 10, CONCURRENCY)
    reset_worker_peaks(master_pid)
    pair = load_interleaved(port, kinds, 2 * REQUESTS, 2 * SECONDS, CONCURRENCY)
    pair_memory = worker_peak_mib(master_pid)
    reset_worker_peaks(master_pid)
    listed = load(port, MCP_PATH, list_headers, REQUESTS, SECONDS, CONCURRENCY, method="POST", bodies=[list_body])
    listed["memory_mib"] = worker_peak_mib(master_pid)
    bare = load(port, "/bench/bare/me", {}, REQUESTS, SECONDS, CONCURRENCY)
    by_mean = pair["tool"]["mean"] / pair["rest"]["mean"] if pair["rest"]["mean"] else None
    by_p50 = pair["tool"]["p50"] / pair["rest"]["p50"] if pair["rest"]["p50"] else None
    verdict = "ok" if by_mean and by_p50 and max(by_mean, by_p50) <= MCP_TARGET else "OVER TARGET"
    pair["tool"]["memory_mib"] = pair["rest"]["memory_mib"] = pair_memory
    return [
        measured(
            "mcp", "tools/call classes_list {limit: 50} beside GET /v1/platform/classes?limit=50, interleaved",
            pair["tool"], pair["rest"], ref_label="REST", queries=None,
            ratio=(pair["rest"]["mean"] / pair["tool"]["mean"]) if pair["tool"]["mean"] else None,
            note=f"tool call costs {by_mean:.2f}x (mean) / {by_p50:.2f}x (p50) its REST call: {verdict} "
                 f"(target {MCP_TARGET}x); ratio = REST mean / tool mean",
        ),
        measured("mcp-tools-list", "tools/list, first page of 50 tools", listed, bare, ref_label="bare"),
    ]  # fmt: skip


def run_scripts(rows_file: Path) -> list[str]:
    """Every `bench/bench_*.py` scenario script with this environment; their rows land in `rows_file`."""
    failed = []
    for script in sorted((ROOT / "bench").glob("bench_*.py")):
        print(f"\n=== {script.name}")
        sys.stdout.flush()
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
            "BENCH_ROWS_FILE": str(rows_file),
        }
        result = subprocess.run([sys.executable, str(script)], cwd=ROOT, env=env)
        if result.returncode:
            failed.append(script.name)
    return failed


def main():
    ensure_database()
    import django

    django.setup()
    token, list_path = seed()
    ledger_token, start, end = seed_ledger()
    from apps.organizations.models import Organization

    site_host = seed_website(Organization.objects.get(slug="bench-org"))
    seed_classes(Organization.objects.get(slug="bench-org"))
    year = f"startDate={start}&endDate={end}"
    auth = {"Authorization": f"Bearer {token}"}
    ledger = {"Authorization": f"Bearer {ledger_token}"}
    # (label, path, row name = bare twin's name, request headers)
    scenarios = [
        ("GET /v1/platform/me", "/v1/platform/me", "me", auth),
        (f"GET {list_path}", list_path, "list", auth),
        (f"GET /v1/platform/classes?limit=100 ({CLASS_ROWS} classes)", "/v1/platform/classes?limit=100", "classes",
         auth),
        (f"transactions, {LEDGER_ROWS // 1000}k in a year, 200/page", f"/v1/platform/transactions?{year}&limit=200",
         "transactions", ledger),
        ("revenue report, 366 days by month", f"/v1/platform/transactions/summary?{year}&groupBy=month", "revenue",
         ledger),
        ("published website page (GET /)", "/", "site", {"Host": site_host}),
    ]  # fmt: skip
    if ONLY:
        scenarios = [scenario for scenario in scenarios if scenario[2] in ONLY]
    queries = capture({name: (api_path, headers) for _, api_path, name, headers in scenarios})

    from django.db import connections

    connections.close_all()
    port = free_port()
    server = start_server(port)
    rows: list[Row] = []
    try:
        for label, api_path, name, headers in scenarios:
            api, bare = measure_pair(port, server.pid, api_path, headers, name)
            rows.append(measured(name, label, api, bare, ref_label="bare", queries=queries[name]))
        if not ONLY or "mcp" in ONLY:
            rows += measure_mcp(port, server.pid, auth)
    finally:
        server.terminate()
        server.wait(timeout=15)

    failed = []
    rows_file = Path(os.environ["BENCH_CAPTURE_DIR"]) / "rows.jsonl"
    rows_file.unlink(missing_ok=True)
    if not ONLY:
        failed = run_scripts(rows_file)
        rows += collect(rows_file)

    heading = (
        f"gunicorn {WORKERS} workers x {THREADS if WORKER_CLASS == 'gthread' else 1} threads ({WORKER_CLASS}), "
        f"{CONCURRENCY} keep-alive client threads, up to "
        f"{REQUESTS} requests / {SECONDS:.0f} s per measurement, loopback; load average {os.getloadavg()[0]:.1f}; "
        f"reference = the bare twin (same bytes from memory, same server, same run) unless named"
    )
    print_table(rows, heading)
    if not ONLY:
        write_markdown(rows, heading, BENCH_DIR / "results.md")
        draw_svg(rows, BENCH_DIR / "results.svg")
        print(f"\nwrote {BENCH_DIR / 'results.md'} and {BENCH_DIR / 'results.svg'}")
    if failed:
        raise SystemExit(f"scenario scripts failed: {', '.join(failed)}")


if __name__ == "__main__":
    main()
