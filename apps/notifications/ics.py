"""A minimal iCalendar (RFC 5545) builder for calendar invitations and cancellations sent by e-mail."""

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.utils import timezone


@dataclass(frozen=True)
class CalendarEvent:
    """One VEVENT: `uid` must stay the same for every update of the same occurrence."""

    uid: str
    start: dt.datetime
    end: dt.datetime
    summary: str
    description: str = ""
    location: str = ""
    sequence: int = 0


def _utc(value: dt.datetime) -> str:
    return value.astimezone(dt.UTC).strftime("%Y%m%dT%H%M%SZ")


def _escape(text: str) -> str:
    return (
        str(text or "")
        .replace("\\", "\\\\")
        .replace(";", "\\;")
        .replace(",", "\\,")
        .replace("\r\n", "\\n")
        .replace("\n", "\\n")
    )


def _fold(line: str) -> list[str]:
    """Lines longer than 75 octets are folded (continuation lines start with a space)."""
    raw = line.encode("utf-8")
    if len(raw) <= 75:
        return [line]
    parts, current = [], ""
    for char in line:
        limit = 75 if not parts else 74
        if len((current + char).encode("utf-8")) > limit:
            parts.append(current)
            current = char
        else:
            current += char
    parts.append(current)
    return [parts[0]] + [" " + p for p in parts[1:]]


def build_calendar(events: list[CalendarEvent], *, method: str = "REQUEST", organizer_email: str | None = None) -> str:
    """A VCALENDAR with `METHOD:REQUEST` (new or changed times) or `METHOD:CANCEL`; CRLF line endings."""
    organizer = organizer_email or settings.DEFAULT_FROM_EMAIL
    stamp = _utc(timezone.now())
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Gym Platform//Classes//EN", "CALSCALE:GREGORIAN"]
    lines.append(f"METHOD:{method}")
    for event in events:
        lines += [
            "BEGIN:VEVENT",
            f"UID:{event.uid}",
            f"DTSTAMP:{stamp}",
            f"DTSTART:{_utc(event.start)}",
            f"DTEND:{_utc(event.end)}",
            f"SUMMARY:{_escape(event.summary)}",
            f"SEQUENCE:{event.sequence}",
            f"ORGANIZER:mailto:{organizer}",
            f"STATUS:{'CANCELLED' if method == 'CANCEL' else 'CONFIRMED'}",
        ]
        if event.description:
            lines.append(f"DESCRIPTION:{_escape(event.description)}")
        if event.location:
            lines.append(f"LOCATION:{_escape(event.location)}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    folded = [part for line in lines for part in _fold(line)]
    return "\r\n".join(folded) + "\r\n"
