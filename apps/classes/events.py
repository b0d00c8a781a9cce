"""Domain events of classes, written in bulk in the caller's transaction: one query for any number of
occurrences."""

from apps.clubs.models import Area
from apps.clubs.services import emit_availability_changed
from apps.domain_events import services as domain_events

from .choices import SeriesStatus
from .resources import load_classes


def emit_class_events(organization, type_: str, class_ids, changed_fields: dict | None = None):
    """`type_` (class.created/updated/cancelled) for each id, with the Class as GET returns it: call it after the
    last write of the classes (and of their series) in the transaction.

    changed_fields: {class_id: [api field names]} for class.updated. The classes are presented once, in one
    batch, when the first payload is built; the events are written in one bulk insert.
    """
    class_ids = list(class_ids)
    if not class_ids:
        return
    batch: dict = {}

    def payload(class_id):
        def build():
            if "classes" not in batch:
                batch["classes"] = load_classes(organization, class_ids)
            return batch["classes"].get(class_id) or {"id": class_id}

        return build

    changed_fields = changed_fields or {}
    domain_events.emit_many(organization, [(type_, payload(cid), changed_fields.get(cid)) for cid in class_ids])


def emit_classes_deleted(organization, rows: list[tuple[int, int | None]]):
    """class.deleted with `{id, recurrenceId}` for each (id, series id)."""
    if rows:
        domain_events.emit_many(
            organization, [("class.deleted", {"id": cid, "recurrenceId": sid}, None) for cid, sid in rows]
        )


def emit_series_changed(organization, recurrence_id: int, *, created=0, removed=0, status=SeriesStatus.ACTIVE):
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
