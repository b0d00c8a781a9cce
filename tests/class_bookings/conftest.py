import pytest

from tests.factories import make_class, make_membership, make_plan


@pytest.fixture
def yoga(organization, club):
    """A class at `club` in three days: 10 seats, 10.00 before tax (12.10 with the organization's 21%)."""
    return make_class(organization, club)


@pytest.fixture
def unlimited_plan(organization):
    return make_plan(organization, "Monthly unlimited")


@pytest.fixture
def membership(organization, contact, unlimited_plan):
    return make_membership(organization, contact, unlimited_plan)


@pytest.fixture(autouse=True)
def _rate_limit_clock_stands_still(monkeypatch):
    """Fixed windows: a test making many requests must not straddle a window boundary (counts would reset)."""
    import time
    from types import SimpleNamespace

    from apps.api import ratelimit

    frozen = int(time.time())
    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(time=lambda: frozen))
