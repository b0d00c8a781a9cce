"""compose.yaml starts the production shape of docs/deployment.md. Docker is not needed: the file is parsed and its
structure checked, and every variable it gives the app is one config/settings.py (or gunicorn) really reads, so a
renamed setting cannot leave the compose file silently configuring nothing."""

import re
import subprocess
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
APP_SERVICES = ("web", "worker", "webhooks", "beat", "migrate")
# Read by the processes themselves rather than by the settings.
PROCESS_VARIABLES = {"WEB_CONCURRENCY", "PROMETHEUS_MULTIPROC_DIR"}  # gunicorn's worker count, config/gunicorn.py
POSTGRES_IMAGE_VARIABLES = {"POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB", "PGDATA"}


def compose() -> dict:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())


def settings_variables() -> set[str]:
    source = (ROOT / "config" / "settings.py").read_text()
    return set(re.findall(r"\benv(?:\.\w+)?\(\s*[\"']([A-Z0-9_]+)[\"']", source))


def environment(service: dict) -> dict:
    env = service.get("environment") or {}
    if isinstance(env, list):
        env = dict(item.split("=", 1) for item in env)
    return env


def test_the_services_of_the_production_shape():
    services = compose()["services"]
    assert set(services) == {"lb", "web", "worker", "webhooks", "beat", "migrate", "db", "db-replica", "redis"}
    assert services["web"]["deploy"]["replicas"] == 2
    for name in APP_SERVICES:
        assert services[name]["build"] == "." and services[name]["image"] == "platform-app", name
    procfile_web = next(line for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith("web:"))
    assert services["web"]["command"][:4] == procfile_web.split()[1:5]  # gunicorn -c config/gunicorn.py <app>
    assert services["web"]["healthcheck"]["test"]
    assert services["db"]["image"].startswith("postgres:")
    assert services["db-replica"]["image"] == services["db"]["image"]
    assert services["redis"]["image"].startswith("redis:")
    assert services["lb"]["depends_on"]["web"]["condition"] == "service_healthy"
    assert "8080:8080" in services["lb"]["ports"]


def test_one_celery_worker_per_queue_of_the_procfile_and_the_task_routes():
    from django.conf import settings

    services = compose()["services"]
    queues = {}
    for name in ("worker", "webhooks"):
        command = services[name]["command"]
        assert command[:4] == ["celery", "-A", "config", "worker"], name
        queues[name] = command[command.index("-Q") + 1]
    routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
    assert set(queues.values()) == {"celery"} | routed  # the default queue and every routed one are consumed
    procfile = (ROOT / "Procfile").read_text()
    assert "-Q webhooks" in procfile and environment(services["webhooks"])["WEBHOOK_QUEUE"] == "webhooks"
    assert services["beat"]["command"][:4] == ["celery", "-A", "config", "beat"]
    assert sum(1 for s in services.values() if "beat" in (s.get("command") or [])) == 1
    assert "replicas" not in services["beat"].get("deploy", {})  # exactly one beat


def test_the_app_reads_every_variable_compose_gives_it_and_uses_the_replica_primary_and_redis():
    services = compose()["services"]
    known = settings_variables() | PROCESS_VARIABLES
    assert {"DATABASE_URL", "DATABASE_REPLICA_URL", "REDIS_URL", "SECRET_KEY", "API_KEY_PEPPER"} <= known
    for name in APP_SERVICES:
        env = environment(services[name])
        assert set(env) <= known, (name, set(env) - known)
        assert env["DEBUG"] == "false"
        assert "@db:5432/" in env["DATABASE_URL"]
        assert "@db-replica:5432/" in env["DATABASE_REPLICA_URL"]
        assert env["REDIS_URL"].startswith("redis://redis:6379/")
        assert env["CELERY_TASK_ALWAYS_EAGER"] == "false"
        for secret in ("SECRET_KEY", "API_KEY_PEPPER"):
            assert env[secret].startswith(f"${{{secret}:?"), "secrets come from the operator, no default"
    assert environment(services["web"])["TRUSTED_PROXY_COUNT"] == "1"  # behind the one load balancer


def test_start_order_migrations_before_the_app_and_the_replica_after_the_primary():
    services = compose()["services"]
    for name in ("web", "worker", "webhooks", "beat"):
        depends = services[name]["depends_on"]
        assert depends["migrate"]["condition"] == "service_completed_successfully", name
        assert depends["redis"]["condition"] == "service_healthy", name
        assert depends["db-replica"]["condition"] == "service_healthy", name
    assert services["migrate"]["command"] == ["python", "manage.py", "migrate", "--noinput"]
    assert services["migrate"]["depends_on"]["db"]["condition"] == "service_healthy"
    assert services["db-replica"]["depends_on"]["db"]["condition"] == "service_healthy"


def test_the_replica_streams_through_the_official_postgres_image_mechanisms():
    services = compose()["services"]
    primary, replica = services["db"], services["db-replica"]
    init = next(v for v in primary["volumes"] if "/docker-entrypoint-initdb.d/" in v)
    init_script = (ROOT / init.split(":")[0]).read_text()
    assert "WITH REPLICATION LOGIN" in init_script and "host replication" in init_script
    assert "wal_level=replica" in primary["command"]
    entrypoint = replica["entrypoint"][0]
    mount = next(v for v in replica["volumes"] if v.split(":")[1] == entrypoint)
    replica_script = (ROOT / mount.split(":")[0]).read_text()
    assert "pg_basebackup" in replica_script and "--write-recovery-conf" in replica_script
    assert "exec docker-entrypoint.sh postgres" in replica_script  # the image's own entrypoint runs the standby
    # The scripts' variables are the ones compose sets (and the image's own).
    for service, script in ((primary, init_script), (replica, replica_script)):
        used = set(re.findall(r"\$\{?([A-Z_]+)", script)) - {"PGDATA"}
        assert used <= set(environment(service)) | POSTGRES_IMAGE_VARIABLES, used
    assert environment(replica)["PRIMARY_HOST"] == "db"
    assert environment(replica)["REPLICATION_USER"] == environment(primary)["REPLICATION_USER"]


def test_the_image_and_the_load_balancer():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert dockerfile.startswith("#") and "FROM python:3.11-slim" in dockerfile
    assert "pip install -r requirements.txt" in dockerfile and "gunicorn" in dockerfile
    assert ".env" in (ROOT / ".dockerignore").read_text().split()  # no local secrets baked into the image
    nginx = (ROOT / "docker" / "nginx.conf").read_text()
    assert "server web:8000" in nginx and "X-Forwarded-For" in nginx


def test_the_postgres_scripts_are_valid_shell():
    for script in sorted((ROOT / "docker" / "postgres").glob("*.sh")):
        result = subprocess.run(["sh", "-n", str(script)], capture_output=True, text=True)
        assert result.returncode == 0, (script.name, result.stderr)
        assert script.stat().st_mode & 0o111, f"{script.name} must be executable (the image runs it)"
