"""`make run`'s embedded default (SQLite, local-memory cache, eager tasks) works: demo seeded, every list answers."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LISTS = [
    "/v1/platform/me",
    "/v1/platform/organization",
    "/v1/platform/clubs|slug",
    "/v1/platform/areas|id",
    "/v1/platform/area-types|id",
    "/v1/platform/area-blocks|id",
    "/v1/platform/classes|id",
    "/v1/platform/class-types|id",
    "/v1/platform/progression-tracks|id",
    "/v1/platform/instructors|id",
    "/v1/platform/instructor-types|id",
    "/v1/platform/pay-rate-policies|id",
    "/v1/platform/contacts|id",
    "/v1/platform/pipeline-stages",
    "/v1/platform/contact-sources",
    "/v1/platform/bookings|id",
    "/v1/platform/checkins|id",
    "/v1/platform/transactions/summary?groupBy=week",
    "/v1/platform/transactions/summary?groupBy=revenueAccount",
    "/v1/platform/analytics/summary",
]


def test_demo_on_sqlite_serves_every_list(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CELERY_TASK_ALWAYS_EAGER")}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'embedded.sqlite3'}"
    env["PYTHONPATH"] = str(ROOT)
    run = subprocess.run(
        [sys.executable, "tests/embedded/smoke.py", *LISTS],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    results = json.loads(run.stdout.strip().splitlines()[-1])
    failing = {path: r for path, r in results.items() if r["status"] != 200}
    assert not failing, failing
    for path in ("/v1/platform/clubs", "/v1/platform/classes", "/v1/platform/bookings", "/v1/platform/contacts"):
        assert results[path]["total"] > 0, f"the demo seeds {path}"
