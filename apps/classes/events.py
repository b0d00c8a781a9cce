"""Domain events of classes (API.md §9), written after commit in bulk: one query for any number of occurrences."""

import orjson
from django.db import transaction

from apps.api.renderers import dumps
from apps.clubs.models import Area
from apps.clubs.services import emit_availability_changed
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


def emit_availability(slots):
    """`availability.changed` (cause `class`) for the areas that classes occupy or free.

    slots: (area_id, start, end) of every occurrence created, moved (old and new slot), cancelled or deleted.
    One event per area, bounded by the earliest start and the latest end among its slots, so a series of 520
    occurrences sends one event per area, not 520.
    """
    bounds: dict[int, list] = {}
    for area_id, start, end in slots:
        if area_id is None:
            continue
        current = bounds.get(area_id)
        if current is None:
            bounds[area_id] = [start, end]
        else:
            current[0] = min(current[0], start)
            current[1] = max(current[1], end)
    if not bounds:
        return
    for area in Area.objects.select_related("club").filter(id__in=list(bounds)).order_by("id"):
        start, end = bounds[area.id]
        emit_availability_changed(area, start, end, cause="class")
