import datetime as dt
import itertools

import pytest
from django.utils import timezone

# The memberships tests sell at fixed dates (2026-01-01, ...), and a sale may be dated at most 366 days from today
# and bills the period that contains today: they run on a clock stopped at this moment.
FROZEN_NOW = dt.datetime(2026, 1, 15, 12, 0, tzinfo=dt.UTC)


def ticking(moment: dt.datetime):
    """A `timezone.now` that stays at `moment` but moves a microsecond per call, so rows stamped one after the
    other (events by `created_at`) keep their order."""
    ticks = itertools.count()
    return lambda: moment + dt.timedelta(microseconds=next(ticks))


@pytest.fixture(autouse=True)
def frozen_clock(request, monkeypatch):
    """`timezone.now()` is FROZEN_NOW, except for the tests marked `worker` (a real Celery worker process reads
    the real clock)."""
    if request.node.get_closest_marker("worker") is None:
        monkeypatch.setattr(timezone, "now", ticking(FROZEN_NOW))
