"""`emit_many`: several events recorded in the caller's transaction in one insert; subscribers called after commit;
nothing when the transaction rolls back."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from apps.domain_events import services
from apps.domain_events.models import DomainEvent


def test_emit_many_writes_once_in_the_transaction_and_notifies_after_commit_in_order(
    organization, django_capture_on_commit_callbacks, monkeypatch
):
    seen = []
    monkeypatch.setattr(services, "_subscribers", [lambda event: seen.append(event.type)])
    with django_capture_on_commit_callbacks() as callbacks, CaptureQueriesContext(connection) as queries:
        services.emit_many(
            organization,
            [
                ("class.created", {"id": 1}, None),
                ("class.created", lambda: {"id": 2}, None),
                ("class.updated", {"id": 3}, ["name"]),
            ],
        )
    assert len([q for q in queries.captured_queries if q["sql"].startswith("INSERT")]) == 1
    rows = list(DomainEvent.objects.order_by("created_at", "id").values("type", "data", "changed_fields"))
    assert rows == [
        {"type": "class.created", "data": {"id": 1}, "changed_fields": None},
        {"type": "class.created", "data": {"id": 2}, "changed_fields": None},
        {"type": "class.updated", "data": {"id": 3}, "changed_fields": ["name"]},
    ]
    assert seen == []  # nothing before commit
    # The list page cache may register its own commit hook (apps/api/pagecache.py): only the subscribers' is ours.
    (notify,) = [callback for callback in callbacks if callback.__module__ == services.__name__]
    notify()
    assert seen == ["class.created", "class.created", "class.updated"]
    assert len({e.id for e in DomainEvent.objects.all()}) == 3 and all(
        e.id.startswith("evt_") for e in DomainEvent.objects.all()
    )


def test_emit_many_with_nothing_and_on_rollback_records_nothing(organization, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services.emit_many(organization, [])
    assert callbacks == []
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(RuntimeError), transaction.atomic():
            services.emit_many(organization, [("booking.created", {"id": 1}, None)])
            assert DomainEvent.objects.count() == 1  # written inside the transaction
            raise RuntimeError("rolled back")
    assert callbacks == []  # the fan-out is dropped with the transaction
    assert not DomainEvent.objects.exists()
