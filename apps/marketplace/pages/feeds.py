"""iCalendar feeds: a listed club's public classes (`classes.ics`) and an instructor's private feed.

One VEVENT per class occurrence (no RRULE), with the same UID as the instructors' e-mailed invitations
(`apps.classes.notices.calendar_event`), so a calendar that has both shows one event. Times are on the club's clock
(`TZID` plus the zone's `VTIMEZONE`); a cancelled occurrence stays in the feed with `STATUS:CANCELLED`, so
subscribed calendars drop it rather than keep a stale copy.
"""

import dataclasses
import datetime as dt

from apps.classes.choices import ClassStatus, Visibility
from apps.classes.models import ClassOccurrence
from apps.classes.notices import calendar_event
from apps.clubs.models import Club
from apps.instructors.models import Instructor
from apps.notifications.ics import CalendarEvent, build_calendar

CLUB_FEED_DAYS = 60
INSTRUCTOR_FEED_PAST_DAYS = 30
INSTRUCTOR_FEED_DAYS = 180
MAX_FEED_EVENTS = 2000


def _event(occurrence: ClassOccurrence) -> CalendarEvent:
    status = "CANCELLED" if occurrence.status == ClassStatus.CANCELLED else "CONFIRMED"
    return dataclasses.replace(calendar_event(occurrence), status=status, timezone=occurrence.club.timezone or "UTC")


def _feed(occurrences, timezone_name: str, name: str) -> str:
    """The calendar of the first `MAX_FEED_EVENTS` of `occurrences`, in start order."""
    occurrences = occurrences.select_related("club", "area").order_by("start_time", "id")[:MAX_FEED_EVENTS]
    return build_calendar([_event(o) for o in occurrences], method=None, timezone_name=timezone_name, name=name)


def club_feed(club: Club, now: dt.datetime) -> str:
    """The club's `Public` classes that have not ended yet and start within `CLUB_FEED_DAYS`."""
    occurrences = ClassOccurrence.objects.filter(
        club=club,
        visibility=Visibility.PUBLIC,
        end_time__gt=now,
        start_time__lt=now + dt.timedelta(days=CLUB_FEED_DAYS),
    )
    return _feed(occurrences, club.timezone or "UTC", f"{club.name}: classes")


def instructor_feed(instructor: Instructor, now: dt.datetime) -> str:
    """Every class the instructor teaches (any visibility) from 30 days ago to 180 days ahead."""
    occurrences = ClassOccurrence.objects.filter(
        organization_id=instructor.organization_id,
        instructors=instructor,
        start_time__gte=now - dt.timedelta(days=INSTRUCTOR_FEED_PAST_DAYS),
        start_time__lt=now + dt.timedelta(days=INSTRUCTOR_FEED_DAYS),
    )
    return _feed(occurrences, instructor.organization.timezone or "UTC", f"{instructor.contact.name}: classes")
