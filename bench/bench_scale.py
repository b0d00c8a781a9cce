"""Latency at scale: the same requests against an organization of 10k bookings and one of 1M, same server, same run.

Standalone (`make bench` runs it among the scenario scripts), or directly:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/platform_bench REDIS_URL=redis://127.0.0.1:6379/14 \\
        python bench/bench_scale.py [ROW ...]

The organizations come from `bench/seed_scale.py` (generated once, about 8 minutes for 1M, then reused). For every
row the client threads (`BENCH_SCALE_CONCURRENCY`, default 2, so that a request mostly measures its own service
time rather than the queue behind the others) send the 10k request, the 1M request and the bare twin of each (the
same bytes from memory, `bench/urls.py`) in turn on the same connections, so all four meet the same moments of a
shared machine. Target: p99 at 1M within 1.5x of p99 at 10k. `req/s` of a scale row is one client's rate (1000 /
mean latency in ms). The offer search runs with the offer cache off and the lists with the page cache off
(`API_PAGE_CACHE_SECONDS=0`): every answer is computed, so the rows compare the queries at 10k and 1M, not two
cached pages.
"""

import datetime as dt
import json
import os
import sys
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("BENCH_CAPTURE_DIR", str(Path(os.environ.get("TMPDIR", "/tmp")) / "platform-bench"))
os.environ["MARKETPLACE_OFFERS_CACHE_SECONDS"] = "0"
os.environ["API_PAGE_CACHE_SECONDS"] = "0"

from bench.run import (  # noqa: E402
    ensure_database,
    free_port,
    load_interleaved,
    mcp_request,
    start_server,
)
from bench.table import Row, emit, reset_worker_peaks, worker_peak_mib  # noqa: E402

SIZES = ("10k", "1M")
TARGET = 1.5
CONCURRENCY = int(os.environ.get("BENCH_SCALE_CONCURRENCY", "2"))
REQUESTS = int(os.environ.get("BENCH_SCALE_REQUESTS", "800"))  # per row, all four kinds together
SECONDS = float(os.environ.get("BENCH_SCALE_SECONDS", "20"))


def requests_for(scale) -> dict[str, tuple[str, str, str, dict, bytes | None]]:
    """row name -> (label, method, path, headers, body) against one generated organization."""
    from bench.seed_scale import MARKETPLACE_POINTS

    auth = {"Authorization": f"Bearer {scale.token}"}
    today = dt.date.today()
    week = f"startDate={today + dt.timedelta(days=7)}&endDate={today + dt.timedelta(days=13)}"
    year = f"startDate={today - dt.timedelta(days=366)}&endDate={today - dt.timedelta(days=1)}"
    lat, lng = MARKETPLACE_POINTS[scale.size]
    offers = {"lat": lat, "lng": lng, "sports": ["padel"], "date": str(today + dt.timedelta(days=1)),
              "earliestTime": "08:00"}  # fmt: skip
    tool_body, tool_headers = mcp_request("tools/call", {"name": "bookings_list", "arguments": {"limit": 100}},
                                          "bookings_list")  # fmt: skip
    get = "GET"
    return {
        "bookings-list": ("GET /v1/platform/bookings?limit=100", get, "/v1/platform/bookings?limit=100", auth, None),
        "bookings-newest": ("bookings?ordering=-createdAt&limit=100", get,
                            "/v1/platform/bookings?ordering=-createdAt&limit=100", auth, None),
        "bookings-contact": ("bookings?contactId=…&status=confirmed", get,
                             f"/v1/platform/bookings?contactId={scale.contact_id}&status=confirmed", auth, None),
        "bookings-week": ("bookings of one club, one week ahead", get,
                          f"/v1/platform/bookings?clubId={scale.club_id}&{week}&limit=100", auth, None),
        "roster": ("GET /v1/platform/classes/{id}/bookings", get,
                   f"/v1/platform/classes/{scale.roster_class_id}/bookings?limit=100", auth, None),
        "classes-week": ("classes, one week ahead", get, f"/v1/platform/classes?{week}&limit=100", auth, None),
        "contacts-list": ("GET /v1/platform/contacts?limit=100", get, "/v1/platform/contacts?limit=100", auth, None),
        "contacts-search": ("contacts?q=<first and last name>", get,
                            f"/v1/platform/contacts?q={quote(scale.search_term)}", auth, None),
        "transactions-list": ("transactions of the year, 100/page", get,
                              f"/v1/platform/transactions?{year}&limit=100", auth, None),
        "revenue-report": ("transactions/summary, 366 days by month", get,
                           f"/v1/platform/transactions/summary?{year}&groupBy=month", auth, None),
        "offers": ("POST /v1/public/network/search/offers (computed)", "POST", "/v1/public/network/search/offers",
                   {"Content-Type": "application/json"}, json.dumps(offers).encode()),
        "webhook-feed": ("GET /v1/platform/webhook-events?limit=100", get, "/v1/platform/webhook-events?limit=100",
                         auth, None),
        "mcp-bookings-list": ("tools/call bookings_list {limit: 100}", "POST", "/mcp/admin",
                              {**tool_headers, **auth}, tool_body),
    }  # fmt: skip


def capture(name: str, size: str, method: str, path: str, headers: dict, body: bytes | None) -> int:
    """The response bytes for the bare twin; returns the queries the request ran (in process, warm)."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    def send():
        if method == "GET":
            return Client().get(path, headers=headers)
        content_type = headers.get("Content-Type", "application/json")
        rest = {k: v for k, v in headers.items() if k != "Content-Type"}
        return Client().post(path, body, content_type=content_type, headers=rest)

    send()
    with CaptureQueriesContext(connection) as queries:
        response = send()
    if response.status_code != 200:
        raise SystemExit(f"{name} {size}: {path} answered {response.status_code}: {response.content[:300]!r}")
    capture_dir = Path(os.environ["BENCH_CAPTURE_DIR"])
    capture_dir.mkdir(parents=True, exist_ok=True)
    (capture_dir / f"scale-{name}-{size}.json").write_bytes(response.content)
    return len(queries)


def main():
    only = set(sys.argv[1:])
    ensure_database()
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    from bench import seed_scale

    call_command("migrate", verbosity=0, interactive=False)
    scales = {size: seed_scale.ensure(size) for size in SIZES}
    plans = {size: requests_for(scale) for size, scale in scales.items()}
    names = [name for name in plans[SIZES[0]] if not only or name in only]
    queries = {
        (name, size): capture(name, size, *plans[size][name][1:]) for name in names for size in SIZES
    }  # fmt: skip
    connections.close_all()

    port = free_port()
    server = start_server(port)
    rows = []
    try:
        for name in names:
            kinds = {}
            for size in SIZES:
                _, method, path, headers, body = plans[size][name]
                kinds[size] = (method, path, headers, body)
                kinds[f"bare-{size}"] = ("GET", f"/bench/bare/scale-{name}-{size}", {}, None)
            load_interleaved(port, kinds, 8 * len(kinds), 20, CONCURRENCY)  # warm up: each worker counts once
            reset_worker_peaks(server.pid)
            results = load_interleaved(port, kinds, REQUESTS, SECONDS, CONCURRENCY)
            memory = worker_peak_mib(server.pid)
            small = results[SIZES[0]]
            for size in SIZES:
                api, bare = results[size], results[f"bare-{size}"]
                note = ""
                if size != SIZES[0] and small["p99"]:
                    growth = api["p99"] / small["p99"]
                    verdict = "ok" if growth <= TARGET else "OVER TARGET"
                    note = f"p99 {size}/{SIZES[0]} = {growth:.2f} (target <= {TARGET}): {verdict}"
                if api["errors"]:
                    note += f" ({api['errors']} errors)"
                rows.append(
                    emit(
                        Row(
                            row=f"scale-{name}",
                            label=plans[size][name][0],
                            size=size,
                            rps=1000 / api["mean"] if api["mean"] else None,
                            p50=api["p50"],
                            p99=api["p99"],
                            queries=queries[(name, size)],
                            memory_mib=memory,
                            ref_label="bare",
                            ref_rps=1000 / bare["mean"] if bare["mean"] else None,
                            ref_p50=bare["p50"],
                            ref_p99=bare["p99"],
                            note=note.strip(),
                        )
                    )
                )
                print(f"{name:<20} {size:>4} p50 {api['p50']:7.1f} ms  p99 {api['p99']:7.1f} ms  "
                      f"{queries[(name, size)]} queries  {note}", flush=True)  # fmt: skip
    finally:
        server.terminate()
        server.wait(timeout=15)
    over = [r.row for r in rows if "OVER TARGET" in r.note]
    print(f"{len(names)} rows at {', '.join(SIZES)}; over target: {', '.join(over) or 'none'}")


if __name__ == "__main__":
    main()
