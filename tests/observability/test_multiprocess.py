"""Multiprocess mode under a real gunicorn with two workers: `/metrics` sums what every worker recorded."""

import http.client

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.server_env import gunicorn


def _get(port: int, path: str) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


@pytest.fixture
def gunicorn_two_workers(transactional_db, settings, tmp_path):
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    (metrics_dir / "counter_1.db").write_bytes(b"left over from a previous run")  # must not be summed
    with gunicorn(settings, workers=2, env={"PROMETHEUS_MULTIPROC_DIR": str(metrics_dir)}) as server:
        yield server.port, metrics_dir


def healthz_count(body: bytes) -> float:
    for family in text_string_to_metric_families(body.decode()):
        for sample in family.samples:
            if sample.name == "http_request_duration_seconds_count" and sample.labels.get("route") == "/healthz":
                return sample.value
    return 0.0


def test_the_scrape_sums_every_worker(gunicorn_two_workers):
    port, metrics_dir = gunicorn_two_workers
    status, body = _get(port, "/metrics")
    assert status == 200
    before = healthz_count(body)
    sent = 0
    # Until both workers have served some (each writes its own histogram file), so one worker's count alone
    # would fall short of the total.
    while sent < 40 or (len(list(metrics_dir.glob("histogram_*.db"))) < 2 and sent < 400):
        assert _get(port, "/healthz")[0] == 200
        sent += 1
    assert len(list(metrics_dir.glob("histogram_*.db"))) == 2
    status, body = _get(port, "/metrics")
    assert status == 200
    # Whichever worker served each request (and whichever answers the scrape), every one is counted once.
    assert healthz_count(body) - before == sent
    assert not (metrics_dir / "counter_1.db").exists()  # emptied when gunicorn started
