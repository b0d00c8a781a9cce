"""Class operations: create (one-off or series), update (this / all_future), series end move, cancel, delete,
and extending open-ended series. Views, tasks and commands call these; they raise `ApiError`s.
"""

import datetime as dt
import itertools
from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from apps.api.exceptions import Conflict, InvalidStateTransition, ValidationFailed
from apps.api.resources import camel_case
from apps.bookings.models import Booking
from apps.instructors.models import Instructor
from apps.occupancy.queries import active_class_bookings, active_waitlist_entries

from . import events, notices
from .choices import ClassStatus, EditScope, EndsType, SeriesStatus
from .models import ClassOccurrence, ClassSeries
from .recurrence import expand, last_index_within_end, max_occurrences

# Occurrence fields copied from the series template onto new occurrences (model field names).
TEMPLATE_FIELDS = (
    "name",
    "slug",
    "description",
    "images",
    "visibility",
    "sport",
    "color",
    "price_before_tax",
    "is_free",
    "max_capacity",
    "allow_waitlist",
    "translations",
    "area_id",
    "class_type_id",
)


RELATIONS = ("club", "area", "class_type")


def _api_name(name: str) -> str:
    """The body field of a model field, for `changedFields` and the notification rule (`class_type` is
    `classTypeId`)."""
    return camel_case(f"{name}_id" if name in RELATIONS else name)


class SeriesHasActiveBookings(Conflict):
    code = "SERIES_HAS_ACTIVE_BOOKINGS"


class ClassHasActiveBookings(Conflict):
    code = "CLASS_HAS_ACTIVE_BOOKINGS"


@dataclass
class SeriesResult:
    recurrence_id: int
    created: int = 0
    removed: int = 0

    def as_dict(self, with_removed=False) -> dict:
        body = {"recurrenceId": self.recurrence_id, "occurrencesCreated": self.created}
        if with_removed:
            body["occurrencesRemoved"] = self.removed
        return body


def window_horizon(series, days: int | None = None) -> dt.datetime:
    """End of the rolling window of an open-ended series: now (or its start, if later) + SERIES_WINDOW_DAYS."""
    days = settings.SERIES_WINDOW_DAYS if days is None else days
    return max(timezone.now(), series.dtstart) + dt.timedelta(days=days)


# --- templates -------------------------------------------------------------------------------------------------


def _template_value(value):
    return str(value) if isinstance(value, Decimal) else value


def template_from(occurrence_fields: dict, instructor_ids=None) -> dict:
    """The series template entries of the occurrence fields given (model field names), and of the instructors
    when given."""
    template = {}
    for name in TEMPLATE_FIELDS:
        key = name.removesuffix("_id")
        if key in occurrence_fields:
            value = occurrence_fields[key]
            template[name] = getattr(value, "pk", value) if name.endswith("_id") else _template_value(value)
    if instructor_ids is not None:
        template["instructor_ids"] = sorted(int(i) for i in instructor_ids)
    return template


def _occurrence_from_template(series, slot) -> ClassOccurrence:
    values = {k: v for k, v in series.template.items() if k in TEMPLATE_FIELDS}
    if values.get("price_before_tax") is not None:
        values["price_before_tax"] = Decimal(values["price_before_tax"])
    return ClassOccurrence(
        organization_id=series.organization_id,
        club_id=series.club_id,
        series=series,
        occurrence_index=slot.index,
        start_time=slot.start,
        end_time=slot.end,
        **values,
    )


def _set_instructors(occurrence_ids, instructor_ids, *, replace: bool):
    through = ClassOccurrence.instructors.through
    if replace:
        through.objects.filter(classoccurrence_id__in=list(occurrence_ids)).delete()
    through.objects.bulk_create(
        [through(classoccurrence_id=o, instructor_id=i) for o in occurrence_ids for i in instructor_ids],
        ignore_conflicts=True,
    )


def _slots(occurrences) -> list[tuple]:
    return [(o.area_id, o.start_time, o.end_time) for o in occurrences]


def _emit_materialized(organization, series, created_ids, removed: int = 0):
    """The events of the occurrences a series just wrote: class.created, availability.changed (one read of their
    area and slot), then class.series_changed."""
    events.emit_class_events(organization, "class.created", created_ids)
    rows = ClassOccurrence.objects.filter(id__in=list(created_ids), area_id__isnull=False)
    events.emit_availability(rows.values_list("area_id", "start_time", "end_time"))
    events.emit_series_changed(organization, series.id, created=len(created_ids), removed=removed, status=series.status)


def materialize(series, club, *, horizon: dt.datetime | None) -> tuple[list[int], int]:
    """Write the rule's occurrences after `series.materialized_index` (the caller holds the series row lock).

    Returns (created ids, rule occurrences considered incl. skipped). Idempotent: indices are unique per series.
    """
    slots = list(expand(series, club, after_index=series.materialized_index, horizon=horizon))
    if not slots:
        if series.ends_type == EndsType.NEVER and horizon is not None:
            series.materialized_until = horizon
            series.save(update_fields=["materialized_until", "updated_at"])
        return [], 0
    wanted = [s for s in slots if not s.skipped]
    ClassOccurrence.objects.bulk_create([_occurrence_from_template(series, s) for s in wanted], ignore_conflicts=True)
    indices = [s.index for s in wanted]
    created_ids = list(
        ClassOccurrence.objects.filter(series=series, occurrence_index__in=indices)
        .order_by("occurrence_index")
        .values_list("id", flat=True)
    )
    instructor_ids = list(
        Instructor.objects.filter(
            organization_id=series.organization_id, id__in=series.template.get("instructor_ids") or []
        ).values_list("id", flat=True)
    )
    if instructor_ids and created_ids:
        _set_instructors(created_ids, instructor_ids, replace=False)
    series.materialized_index = slots[-1].index
    series.materialized_until = horizon if series.ends_type == EndsType.NEVER else slots[-1].start
    series.save(update_fields=["materialized_index", "materialized_until", "updated_at"])
    return created_ids, len(slots)


# --- create ----------------------------------------------------------------------------------------------------


def create_class(organization, data: dict):
    """Create a one-off class, or a whole series when `recurrence` is given. Returns (occurrence, SeriesResult|None)."""
    data = dict(data)
    instructor_ids = data.pop("instructor_ids", None) or []
    recurrence = data.pop("recurrence", None)
    with transaction.atomic():
        if recurrence is None:
            occurrence = ClassOccurrence.objects.create(organization=organization, **data)
            if instructor_ids:
                occurrence.instructors.set(instructor_ids)
            events.emit_class_events(organization, "class.created", [occurrence.id])
            events.emit_availability([(occurrence.area_id, occurrence.start_time, occurrence.end_time)])
            _invite_instructors(organization, [occurrence], instructor_ids)
            return occurrence, None
        club = data["club"]
        start, end = data["start_time"], data["end_time"]
        series = ClassSeries.objects.create(
            organization=organization,
            club=club,
            frequency=recurrence["frequency"],
            interval=recurrence.get("interval") or 1,
            days_of_week=recurrence.get("days_of_week") or [],
            ends_type=recurrence["ends_type"],
            ends_date=recurrence.get("ends_date"),
            ends_total_occurrences=recurrence.get("ends_total_occurrences"),
            dtstart=start,
            duration_minutes=max(1, int((end - start).total_seconds() // 60)),
            timezone=club.timezone,
            template=template_from(data, instructor_ids),
        )
        horizon = window_horizon(series) if series.ends_type == EndsType.NEVER else None
        if horizon is not None:
            first_window = expand(series, club, after_index=0, horizon=horizon)
            if sum(1 for _ in itertools.islice(first_window, max_occurrences() + 1)) > max_occurrences():
                raise ValidationFailed(
                    {
                        "startTime": [
                            f"An open-ended series starting this far in the past would need more than "
                            f"{max_occurrences()} occurrences up to its {settings.SERIES_WINDOW_DAYS}-day window; "
                            "start it later or give it an end."
                        ]
                    }
                )
        created_ids, _ = materialize(series, club, horizon=horizon)
        if not created_ids:
            raise ValidationFailed(
                {"recurrence": ["Every occurrence of this rule falls while the club is closed; nothing to create."]}
            )
        first = ClassOccurrence.objects.get(pk=created_ids[0])
        if instructor_ids:
            invited = (
                ClassOccurrence.objects.select_related("club", "area")
                .filter(id__in=created_ids, status=ClassStatus.ACTIVE)
                .order_by("start_time", "id")[:CALENDAR_MAX_EVENTS]
            )
            _invite_instructors(organization, list(invited), instructor_ids)
        _emit_materialized(organization, series, created_ids)
        return first, SeriesResult(series.id, created=len(created_ids))


# At most this many VEVENTs in one invitation e-mail (a series' first window never holds more occurrences).
CALENDAR_MAX_EVENTS = 520


def _invite_instructors(organization, occurrences, instructor_ids):
    """On create: each assigned instructor gets ONE iCalendar REQUEST e-mail (after commit) with a VEVENT per
    active occurrence written now (a series: its first window, at most CALENDAR_MAX_EVENTS, earliest first)."""
    occurrences = [o for o in occurrences if o.status == ClassStatus.ACTIVE][:CALENDAR_MAX_EVENTS]
    if not occurrences or not instructor_ids:
        return
    notices.send_instructor_calendars(
        organization, {i: occurrences for i in sorted(set(instructor_ids))}, method="REQUEST", invitation=True
    )


def _send_calendars_for(organization, occurrences, *, method: str, instructor_sets: dict | None = None):
    """instructor_sets: {occurrence id: instructor ids}; read from the rows when not given."""
    assignments: dict[int, list] = {}
    for occurrence in occurrences:
        ids = (
            instructor_sets[occurrence.id]
            if instructor_sets is not None
            else [i.pk for i in occurrence.instructors.all()]
        )
        for instructor_id in ids:
            assignments.setdefault(instructor_id, []).append(occurrence)
    notices.send_instructor_calendars(organization, assignments, method=method)


# --- update ----------------------------------------------------------------------------------------------------


def _targets(occurrence, scope: str, *, lock=True) -> list[ClassOccurrence]:
    queryset = ClassOccurrence.objects.select_related("club", "area")
    if lock:
        queryset = queryset.select_for_update(of=("self",))
    if scope == EditScope.ALL_FUTURE and occurrence.series_id:
        return list(
            queryset.filter(series_id=occurrence.series_id, occurrence_index__gte=occurrence.occurrence_index).order_by(
                "start_time", "id"
            )
        )
    return list(queryset.filter(pk=occurrence.pk))


def _lock(occurrence, *, with_series: bool) -> tuple[ClassSeries | None, ClassOccurrence]:
    """Row-lock the occurrence's series (`with_series`, when it has one), then the occurrence itself."""
    series = None
    if with_series and occurrence.series_id:
        series = ClassSeries.objects.select_for_update().get(pk=occurrence.series_id)
    return series, ClassOccurrence.objects.select_for_update().get(pk=occurrence.pk)


def _instructor_sets(occurrence_ids) -> dict[int, list[int]]:
    sets: dict[int, list[int]] = {o: [] for o in occurrence_ids}
    through = ClassOccurrence.instructors.through
    for occurrence_id, instructor_id in through.objects.filter(classoccurrence_id__in=list(occurrence_ids)).values_list(
        "classoccurrence_id", "instructor_id"
    ):
        sets[occurrence_id].append(instructor_id)
    return {k: sorted(v) for k, v in sets.items()}


def update_class(organization, occurrence, data: dict, *, scope: str = EditScope.THIS, notify_customer: bool = False):
    """Apply a PATCH to this occurrence, or to it and every later one of its series (`all_future`)."""
    data = dict(data)
    instructor_ids = data.pop("instructor_ids", None)
    with transaction.atomic():
        series, current = _lock(occurrence, with_series=scope == EditScope.ALL_FUTURE)
        targets = _targets(current, scope)
        new_club = data.get("club", current.club)
        if "area" in data:
            area = data["area"]
            if area is not None and area.club_id != new_club.pk:
                raise ValidationFailed({"areaId": ["The area does not belong to the class's club."]})
        elif "club" in data and current.area_id and current.area.club_id != new_club.pk:
            raise ValidationFailed({"areaId": ["The class's area belongs to another club; send `areaId` too."]})
        start_delta = data.pop("start_time") - current.start_time if "start_time" in data else dt.timedelta(0)
        end_delta = data.pop("end_time") - current.end_time if "end_time" in data else dt.timedelta(0)
        old_instructors = _instructor_sets([t.id for t in targets])
        old_slots = {t.id: (t.area_id, t.start_time, t.end_time) for t in targets}
        now = timezone.now()
        changed: dict[int, list[str]] = {}
        for target in targets:
            fields_changed = []
            if start_delta or end_delta:
                new_start, new_end = target.start_time + start_delta, target.end_time + end_delta
                if new_end <= new_start:
                    raise ValidationFailed({"endTime": ["Must be after startTime."]})
                if start_delta:
                    fields_changed.append("startTime")
                if end_delta:
                    fields_changed.append("endTime")
                target.start_time, target.end_time = new_start, new_end
            for name, value in data.items():
                if name in RELATIONS:
                    differs = getattr(target, f"{name}_id") != getattr(value, "pk", None)
                else:
                    differs = getattr(target, name) != value
                if differs:
                    fields_changed.append(_api_name(name))
                setattr(target, name, value)
            if instructor_ids is not None and old_instructors[target.id] != sorted(instructor_ids):
                fields_changed.append("instructorIds")
            target.updated_at = now
            changed[target.id] = fields_changed
        ClassOccurrence.objects.bulk_update(targets, ["start_time", "end_time", "updated_at", *data])
        if instructor_ids is not None:
            _set_instructors([t.id for t in targets], instructor_ids, replace=True)
        if series is not None:
            _update_series_template(series, data, instructor_ids, start_delta, end_delta)
        moved = [t for t in targets if old_slots[t.id] != (t.area_id, t.start_time, t.end_time)]
        if moved and any(t.status == ClassStatus.ACTIVE for t in moved):
            active = [t for t in moved if t.status == ClassStatus.ACTIVE]
            events.emit_availability([old_slots[t.id] for t in active] + _slots(active))
        _after_update(organization, targets, changed, old_instructors, instructor_ids, notify_customer)
    return current


def _update_series_template(series, data, instructor_ids, start_delta, end_delta):
    series.template = {**series.template, **template_from(data, instructor_ids)}
    if "club" in data:
        series.club = data["club"]
    series.start_shift_seconds += int(start_delta.total_seconds())
    series.duration_minutes = max(1, series.duration_minutes + int((end_delta - start_delta).total_seconds() // 60))
    series.save()


def _after_update(organization, targets, changed, old_instructors, instructor_ids, notify_customer):
    updated = [t for t in targets if changed[t.id]]
    if not updated:
        return
    events.emit_class_events(organization, "class.updated", [t.id for t in updated], changed_fields=changed)
    rescheduled = [t for t in updated if notices.SCHEDULE_FIELDS & set(changed[t.id])]
    if not rescheduled:
        return
    all_changed = set().union(*(set(changed[t.id]) & notices.SCHEDULE_FIELDS for t in rescheduled))
    if notify_customer:
        notices.notify_booked_of_change(organization, rescheduled, all_changed)
    # A cancelled occurrence is no longer on the instructors' calendars (they got a CANCEL): no REQUEST brings it back.
    rescheduled = [t for t in rescheduled if t.status == ClassStatus.ACTIVE]
    if not rescheduled:
        return
    new_sets = (
        {t.id: sorted(instructor_ids) for t in rescheduled}
        if instructor_ids is not None
        else {t.id: old_instructors[t.id] for t in rescheduled}
    )
    _send_calendars_for(organization, rescheduled, method="REQUEST", instructor_sets=new_sets)
    removed = {t.id: sorted(set(old_instructors[t.id]) - set(new_sets[t.id])) for t in rescheduled}
    if any(removed.values()):
        _send_calendars_for(organization, rescheduled, method="CANCEL", instructor_sets=removed)


# --- series end move -------------------------------------------------------------------------------------------


def _blocked_ids(occurrence_ids) -> list[int]:
    occurrence_ids = list(occurrence_ids)
    booked = active_class_bookings().filter(class_occurrence_id__in=occurrence_ids)
    waiting = active_waitlist_entries().filter(class_occurrence_id__in=occurrence_ids)
    return sorted(
        set(booked.values_list("class_occurrence_id", flat=True))
        | set(waiting.values_list("class_occurrence_id", flat=True))
    )


def _remove_occurrences(organization, occurrences) -> int:
    """Delete occurrences without active bookings: their cancelled bookings are kept, detached (classId null)."""
    ids = [o.id for o in occurrences]
    if not ids:
        return 0
    Booking.objects.filter(class_occurrence_id__in=ids).update(class_occurrence=None, updated_at=timezone.now())
    ClassOccurrence.objects.filter(id__in=ids).delete()
    events.emit_classes_deleted(organization, [(o.id, o.series_id) for o in occurrences])
    events.emit_availability(_slots(o for o in occurrences if o.status == ClassStatus.ACTIVE))
    return len(ids)


def move_series_end(organization, occurrence, recurrence: dict):
    """Move where the series ends. Returns (occurrence to show, SeriesResult)."""
    with transaction.atomic():
        series = ClassSeries.objects.select_for_update().select_related("club").get(pk=occurrence.series_id)
        if series.status == SeriesStatus.CANCELLED:
            raise InvalidStateTransition(series.status, "The series is cancelled; its end cannot move.")
        series.ends_type = recurrence["ends_type"]
        series.ends_date = recurrence.get("ends_date")
        series.ends_total_occurrences = recurrence.get("ends_total_occurrences")
        existing = ClassOccurrence.objects.filter(series=series)
        if series.ends_type == EndsType.AFTER:
            beyond = list(existing.filter(occurrence_index__gt=series.ends_total_occurrences))
        elif series.ends_type == EndsType.UNTIL:
            beyond = list(existing.filter(start_time__gt=series.ends_date))
        else:
            beyond = []
        blocked = _blocked_ids(o.id for o in beyond)
        if blocked:
            raise SeriesHasActiveBookings(
                "Occurrences past the new end have active bookings or waitlist entries.",
                details={"classIds": blocked},
            )
        if beyond and len(beyond) == existing.count():
            raise ValidationFailed({"recurrence": ["The new end would leave the series without occurrences."]})
        removed = _remove_occurrences(organization, beyond)
        if series.ends_type != EndsType.NEVER:
            series.materialized_index = min(series.materialized_index, last_index_within_end(series))
        series.save()
        horizon = window_horizon(series) if series.ends_type == EndsType.NEVER else None
        created_ids, _ = materialize(series, series.club, horizon=horizon)
        _emit_materialized(organization, series, created_ids, removed)
        shown = ClassOccurrence.objects.filter(pk=occurrence.pk).first()
        if shown is None:
            shown = ClassOccurrence.objects.filter(series=series).order_by("-start_time", "-id").first()
        return shown, SeriesResult(series.id, created=len(created_ids), removed=removed)


# --- cancel and delete -----------------------------------------------------------------------------------------


def cancel_class(organization, occurrence, *, scope: str = EditScope.THIS, reason=None, notify_customer=False):
    with transaction.atomic():
        series, current = _lock(occurrence, with_series=scope == EditScope.ALL_FUTURE)
        if current.status == ClassStatus.CANCELLED and (series is None or series.status == SeriesStatus.CANCELLED):
            raise InvalidStateTransition(current.status)
        targets = [t for t in _targets(current, scope) if t.status == ClassStatus.ACTIVE]
        now = timezone.now()
        for target in targets:
            target.status = ClassStatus.CANCELLED
            target.cancelled_at = now
            target.cancellation_reason = reason
            target.updated_at = now
        ClassOccurrence.objects.bulk_update(targets, ["status", "cancelled_at", "cancellation_reason", "updated_at"])
        if series is not None:
            # before the class events: their payloads show the series' status
            series.status = SeriesStatus.CANCELLED
            series.save(update_fields=["status", "updated_at"])
        events.emit_class_events(organization, "class.cancelled", [t.id for t in targets])
        events.emit_availability(_slots(targets))
        if series is not None:
            events.emit_series_changed(organization, series.id, status=SeriesStatus.CANCELLED)
        if targets:
            if notify_customer:
                notices.notify_booked_of_cancel(organization, targets, reason)
            _send_calendars_for(
                organization, targets, method="CANCEL", instructor_sets=_instructor_sets([t.id for t in targets])
            )
    return current


def delete_class(organization, occurrence, *, scope: str = EditScope.THIS):
    with transaction.atomic():
        series, current = _lock(occurrence, with_series=True)
        targets = _targets(current, scope)
        blocked = _blocked_ids(t.id for t in targets)
        if blocked:
            raise ClassHasActiveBookings(
                "Occurrences with active bookings or waitlist entries cannot be deleted; cancel them instead.",
                details={"classIds": blocked},
            )
        instructor_sets = _instructor_sets([t.id for t in targets])
        calendar_rows = [t for t in targets if t.status == ClassStatus.ACTIVE]
        _send_calendars_for(
            organization,
            calendar_rows,
            method="CANCEL",
            instructor_sets={t.id: instructor_sets[t.id] for t in calendar_rows},
        )
        removed = _remove_occurrences(organization, targets)
        if series is None:
            return
        remaining = ClassOccurrence.objects.filter(series=series).order_by("-occurrence_index").first()
        if remaining is None:
            events.emit_series_changed(organization, series.id, removed=removed, status="deleted")
            series.delete()
            return
        if scope == EditScope.ALL_FUTURE:
            # The series now ends at the last kept occurrence; an open-ended one stops extending.
            series.ends_type = EndsType.UNTIL
            series.ends_date = remaining.start_time
            series.ends_total_occurrences = None
            series.materialized_index = current.occurrence_index - 1
            series.save()
            events.emit_series_changed(organization, series.id, removed=removed, status=series.status)


# --- open-ended series extension -------------------------------------------------------------------------------


@dataclass
class ExtendResult:
    series_id: int
    organization_id: int
    created: int
    skipped_locked: bool = False


def extend_one(series_id: int, *, days: int | None = None, dry_run: bool = False) -> ExtendResult | None:
    """Fill the window of one active open-ended series. None when it is no longer eligible.

    The series row is locked with SKIP LOCKED: a concurrent run (or an API write) holding it makes this one skip.
    """
    with transaction.atomic():
        series = (
            ClassSeries.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("club", "organization")
            .filter(pk=series_id, status=SeriesStatus.ACTIVE, ends_type=EndsType.NEVER)
            .first()
        )
        if series is None:
            exists = ClassSeries.objects.filter(
                pk=series_id, status=SeriesStatus.ACTIVE, ends_type=EndsType.NEVER
            ).exists()
            return ExtendResult(series_id, 0, 0, skipped_locked=True) if exists else None
        horizon = window_horizon(series, days)
        if dry_run:
            slots = expand(series, series.club, after_index=series.materialized_index, horizon=horizon)
            return ExtendResult(series.id, series.organization_id, sum(1 for s in slots if not s.skipped))
        created_ids, _ = materialize(series, series.club, horizon=horizon)
        if created_ids:
            _emit_materialized(series.organization, series, created_ids)
        return ExtendResult(series.id, series.organization_id, len(created_ids))


def open_series_ids(organization=None) -> list[int]:
    queryset = ClassSeries.objects.filter(status=SeriesStatus.ACTIVE, ends_type=EndsType.NEVER)
    if organization is not None:
        queryset = queryset.filter(organization=organization)
    return list(queryset.order_by("id").values_list("id", flat=True))


def extend_open_series(*, organization=None, days=None, dry_run=False, progress=None) -> list[ExtendResult]:
    results = []
    for series_id in open_series_ids(organization):
        result = extend_one(series_id, days=days, dry_run=dry_run)
        if result is None:
            continue
        results.append(result)
        if progress:
            progress(result)
    return results
