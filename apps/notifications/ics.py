"""iCalendar (RFC 5545) documents built with the `icalendar` library: the invitations and cancellations sent to
instructors by e-mail (`METHOD:REQUEST` / `METHOD:CANCEL`, times in UTC) and the subscription feeds (no method,
times on the club's clock with its `TZID` and `VTIMEZONE`)."""

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.conf import settings
from django.utils import timezone

from apps.kernel import clock

if TYPE_CHECKING:
    import icalendar

PRODID = "-//Gym Platform//Classes//EN"


@dataclass(frozen=True)
class CalendarEvent:
    """One VEVENT: `uid` must stay the same for every update of the same occurrence. `status` overrides the one
    the method implies (CANCELLED for `METHOD:CANCEL`, else CONFIRMED), e.g. a cancelled class in a feed."""

    uid: str
    start: dt.datetime
    end: dt.datetime
    summary: str
    description: str = ""
    location: str = ""
    sequence: int = 0
    status: str | None = None
    url: str = ""
    timezone: str | None = None  # this event's IANA zone (e.g. its club's); else the calendar's


def _calendar(method: str | None, name: str | None) -> "icalendar.Calendar":
    import icalendar  # noqa: PLC0415 - imported on use: 4 MB that a web worker serving no calendar never needs

    calendar = icalendar.Calendar()
    calendar.add("version", "2.0")
    calendar.add("prodid", PRODID)
    calendar.add("calscale", "GREGORIAN")
    if method:
        calendar.add("method", method)
    if name:
        calendar.add("x-wr-calname", name)
    return calendar


def _event(event: CalendarEvent, *, stamp: dt.datetime, tz: dt.tzinfo) -> "icalendar.Event":
    import icalendar  # noqa: PLC0415

    if event.timezone:
        tz = clock.zone(event.timezone)
    vevent = icalendar.Event()
    vevent.add("uid", event.uid)
    vevent.add("dtstamp", stamp)
    vevent.add("dtstart", event.start.astimezone(tz))
    vevent.add("dtend", event.end.astimezone(tz))
    vevent.add("summary", event.summary or "")
    vevent.add("sequence", event.sequence)
    return vevent


def build_calendar(
    events: list[CalendarEvent],
    *,
    method: str | None = "REQUEST",
    organizer_email: str | None = None,
    timezone_name: str | None = None,
    name: str | None = None,
) -> str:
    """A VCALENDAR as text with CRLF line endings.

    `method`: `REQUEST` (new or changed times) or `CANCEL` for an e-mailed invitation, with an `ORGANIZER`; None
    for a subscription feed (no method, no organizer). `timezone_name`: write the times on that IANA zone's clock
    with a `TZID` and add its `VTIMEZONE` (an event with its own `timezone` uses that zone instead); without either
    times are UTC (`...Z`). `name`: the feed's display name.
    """
    stamp = timezone.now().astimezone(dt.UTC).replace(microsecond=0)
    tz = clock.zone(timezone_name) if timezone_name else dt.UTC
    calendar = _calendar(method, name)
    if timezone_name and not method:
        calendar.add("x-wr-timezone", timezone_name)
    organizer = (organizer_email or settings.DEFAULT_FROM_EMAIL) if method else None
    default_status = "CANCELLED" if method == "CANCEL" else "CONFIRMED"
    for event in events:
        vevent = _event(event, stamp=stamp, tz=tz)
        if organizer:
            vevent.add("organizer", f"mailto:{organizer}")
        vevent.add("status", event.status or default_status)
        if event.description:
            vevent.add("description", event.description)
        if event.location:
            vevent.add("location", event.location)
        if event.url:
            vevent.add("url", event.url)
        calendar.add_component(vevent)
    if events and (timezone_name or any(e.timezone for e in events)):
        first = min(e.start for e in events).astimezone(dt.UTC).date() - dt.timedelta(days=1)
        last = max(e.end for e in events).astimezone(dt.UTC).date() + dt.timedelta(days=366)
        calendar.add_missing_timezones(first_date=first, last_date=last)
    return calendar.to_ical(sorted=False).decode("utf-8")
