import datetime as dt

import pytest
from django.utils import timezone


@pytest.fixture
def slot():
    """A future one-hour slot, whole hours, as (start, end)."""
    start = (timezone.now() + dt.timedelta(days=3)).replace(minute=0, second=0, microsecond=0)
    return start, start + dt.timedelta(hours=1)


def iso(value):
    return value.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


@pytest.fixture(autouse=True)
def _rate_limit_clock_stands_still(monkeypatch):
    """Fixed windows: a test making many requests must not straddle a window boundary (counts would reset)."""
    import time
    from types import SimpleNamespace

    from apps.api import ratelimit

    frozen = int(time.time())
    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(time=lambda: frozen))
