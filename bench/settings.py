"""Settings for the benchmark server: the project's settings plus bench-only URLs (bare reference views)."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
LOGGING = {"version": 1, "disable_existing_loggers": False, "root": {"level": "WARNING"}}
