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
