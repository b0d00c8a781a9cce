"""What people are told when classes change: booked contacts (opt-in) and assigned instructors (calendar e-mail)."""

from urllib.parse import urlparse

from django.conf import settings

from apps.instructors.models import Instructor
from apps.kernel import clock
from apps.notifications.choices import Channel
from apps.notifications.ics import CalendarEvent, build_calendar
from apps.notifications.services import notify_contacts
from apps.occupancy.queries import active_class_bookings

from .choices import ClassStatus

SCHEDULE_FIELDS = frozenset({"startTime", "endTime", "areaId", "clubId", "instructorIds"})


def _local(value, club) -> str:
    return value.astimezone(clock.zone_of(club)).strftime("%a %d %b %Y %H:%M")


def _where(occurrence) -> str:
    return occurrence.club.name + (f", {occurrence.area.name}" if occurrence.area_id else "")


def describe(occurrence) -> str:
    start, end = _local(occurrence.start_time, occurrence.club), _local(occurrence.end_time, occurrence.club)
    return f"{occurrence.name}: {start}–{end[-5:]} ({_where(occurrence)})"


def schedule_lines(occurrences) -> list[str]:
    """A `- ` line for each of the first 20 occurrences, then how many more there are."""
    lines = [f"- {describe(o)}" for o in occurrences[:20]]
    if len(occurrences) > 20:
        lines.append(f"… and {len(occurrences) - 20} more.")
    return lines


def booked_contact_ids(occurrence_ids) -> list[int]:
    return sorted(
        set(
            active_class_bookings()
            .filter(class_occurrence_id__in=list(occurrence_ids))
            .exclude(contact_id=None)
            .values_list("contact_id", flat=True)
        )
    )


def _notify_booked(organization, occurrences, kind: str, subject: str, lines: list[str], data: dict) -> None:
    """Tell the people booked into `occurrences`, on every channel; nobody booked, nothing sent."""
    contact_ids = booked_contact_ids(o.id for o in occurrences)
    if contact_ids:
        data = {"classIds": [o.id for o in occurrences], **data}
        notify_contacts(organization, contact_ids, kind=kind, subject=subject, body="\n".join(lines), data=data)


def notify_booked_of_change(organization, occurrences, changed: set[str]):
    """Tell the booked people of `occurrences` (active ones) about a schedule change, on every channel."""
    occurrences = [o for o in occurrences if o.status == ClassStatus.ACTIVE]
    if not occurrences:
        return
    first = occurrences[0]
    lines = [f"Your class {first.name} has changed ({', '.join(sorted(changed))}). New schedule:"]
    subject = f"Schedule change: {first.name}"
    data = {"changedFields": sorted(changed)}
    _notify_booked(
        organization, occurrences, "class.schedule_changed", subject, lines + schedule_lines(occurrences), data
    )


def notify_booked_of_cancel(organization, occurrences, reason: str | None):
    if not occurrences:
        return
    first = occurrences[0]
    lines = [f"Your class {first.name} has been cancelled:"] + [f"- {describe(o)}" for o in occurrences[:20]]
    if reason:
        lines.append(f"Reason: {reason}")
    _notify_booked(
        organization, occurrences, "class.cancelled", f"Class cancelled: {first.name}", lines, {"reason": reason}
    )


def _uid(occurrence_id: int) -> str:
    host = urlparse(settings.BASE_URL).hostname or "localhost"
    return f"class-{occurrence_id}@{host}"


def calendar_event(occurrence) -> CalendarEvent:
    return CalendarEvent(
        uid=_uid(occurrence.id),
        start=occurrence.start_time,
        end=occurrence.end_time,
        summary=occurrence.name,
        description=occurrence.description or "",
        location=_where(occurrence),
        sequence=int(occurrence.updated_at.timestamp()) if occurrence.updated_at else 0,
    )


def send_instructor_calendars(organization, assignments: dict[int, list], *, method: str, invitation=False):
    """E-mail each instructor (by id) an iCalendar of their occurrences: REQUEST (new/changed) or CANCEL.
    `invitation`: the occurrences were just created (same REQUEST, worded as an invitation)."""
    assignments = {iid: occs for iid, occs in assignments.items() if occs}
    if not assignments:
        return
    contacts = dict(
        Instructor.objects.filter(organization=organization, id__in=list(assignments)).values_list("id", "contact_id")
    )
    for instructor_id, occurrences in sorted(assignments.items()):
        contact_id = contacts.get(instructor_id)
        if contact_id is None:
            continue
        occurrences = sorted(occurrences, key=lambda o: o.start_time)
        ics = build_calendar([calendar_event(o) for o in occurrences], method=method)
        if invitation:
            subject = f"Calendar invitation: {occurrences[0].name}"
            lines = ["You are teaching:"]
        else:
            verb = "cancelled" if method == "CANCEL" else "updated"
            subject = f"Calendar {verb}: {occurrences[0].name}"
            lines = [f"Your teaching schedule was {verb}:"]
        lines += schedule_lines(occurrences)
        notify_contacts(
            organization,
            [contact_id],
            kind="class.calendar_update",
            subject=subject,
            body="\n".join(lines),
            data={"classIds": [o.id for o in occurrences], "method": method},
            channels=(Channel.EMAIL,),
            attachments=[("class.ics", ics, "text/calendar")],
        )
