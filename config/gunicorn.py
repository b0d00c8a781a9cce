"""gunicorn settings file (`gunicorn -c config/gunicorn.py config.wsgi:application`, as the Procfile does).

Only the hooks that Prometheus' multiprocess mode needs (docs/deployment.md, "Metrics"): with
`PROMETHEUS_MULTIPROC_DIR` set, each worker writes its metric values to files in that directory and `/metrics`
sums them. Files of a previous run would be summed too, so the directory is emptied when the arbiter starts; a
worker that exits is marked dead so its live gauges stop counting (its counters and histograms are kept).
"""

import os
from pathlib import Path


def on_starting(server):
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if directory:
        path = Path(directory)
        path.mkdir(parents=True, exist_ok=True)
        for stale in path.glob("*.db"):
            stale.unlink()


def child_exit(server, worker):
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
