"""Domain events of classes (API.md §9), written after commit in bulk: one query for any number of occurrences."""

import orjson
from django.db import transaction

from apps.api.renderers import dumps
from apps.domain_events import services as domain_events
from apps.domain_events.models import DomainEvent


def _store(organization_id: int, items: list[tuple[str, dict, list | None]]):
    events = [
        DomainEvent(
            id=domain_events.new_event_id(),
            organization_id=organization_id,
            type=type_,
            data=orjson.loads(dumps(data)),
            changed_fields=list(changed) if changed else None,
        )
        for type_, data, changed in items
    ]
    DomainEvent.objects.bulk_create(events)
    for event in events:
        for handler in domain_events._subscribers:
            handler(event)


def emit_class_events(organization, type_: str, class_ids, changed_fields: dict | None = None):
    """`type_` (class.created/updated/cancelled) for each id, with the Class as GET returns it after commit.

    changed_fields: {class_id: [api field names]} for class.updated.
    """
    from .presenters import load_classes

    class_ids = list(class_ids)
    if not class_ids:
        return
    org_id = organization.pk

    def record():
        presented = load_classes(organization, class_ids)
        items = [(type_, presented[cid], (changed_fields or {}).get(cid)) for cid in class_ids if cid in presented]
        _store(org_id, items)

    transaction.on_commit(record)


def emit_classes_deleted(organization, rows: list[tuple[int, int | None]]):
    """class.deleted with `{id, recurrenceId}` for each (id, series id)."""
    if not rows:
        return
    org_id = organization.pk
    items = [("class.deleted", {"id": cid, "recurrenceId": sid}, None) for cid, sid in rows]
    transaction.on_commit(lambda: _store(org_id, items))


def emit_series_changed(organization, recurrence_id: int, *, created=0, removed=0, status="active"):
    data = {
        "recurrenceId": recurrence_id,
        "occurrencesCreated": created,
        "occurrencesRemoved": removed,
        "status": status,
    }
    domain_events.emit(organization, "class.series_changed", data)
