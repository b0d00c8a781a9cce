import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.domain_events.models import DomainEvent


@pytest.fixture
def events():
    """events(type=None) -> the data of recorded domain events, oldest first."""

    def read(type=None):
        qs = DomainEvent.objects.order_by("created_at", "id")
        if type:
            qs = qs.filter(type=type)
        return [e.data for e in qs]

    return read


@pytest.fixture
def count_queries(api):
    """count_queries(url) -> number of queries of a GET, after a warm-up request (first use of a key writes)."""

    def run(url):
        api.get("/v1/platform/me")
        with CaptureQueriesContext(connection) as ctx:
            response = api.get(url)
        assert response.status_code == 200, response.content
        return len(ctx)

    return run
