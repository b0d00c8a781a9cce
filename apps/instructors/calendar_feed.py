"""The instructor's private calendar feed URL: signed, needs no credential, revocable by rotation or all at once.

The URL's token is the shared `ExpiringToken` (apps/api/signed_tokens.py, never expiring) over `<instructor id>-<feed
version>` with the organization's `calendar_feed_epoch` as its epoch claim. Rotating increments
`Instructor.calendar_feed_version`, so every URL issued before for that instructor answers 404; bumping the
organization's epoch (admin action "Revoke calendar feeds") does the same for every instructor of the organization.
A bad signature is a 404 too; changing `SECRET_KEY` invalidates every feed URL.
"""

import re
from typing import TypedDict

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.urls import reverse

from apps.api.signed_tokens import ExpiringToken
from apps.organizations.choices import OrganizationStatus

from .models import Instructor

_TOKENS = ExpiringToken("apps.instructors.calendar-feed", max_age_seconds=None)
_VALUE = re.compile(r"(\d{1,18})-(\d{1,10})")


class CalendarFeed(TypedDict):
    """The instructor's private iCalendar feed: `url` (https or http) and `webcalUrl`, the same URL with the
    `webcal` scheme that calendar apps subscribe to."""

    url: str
    webcalUrl: str


def feed_token(instructor: Instructor, feed_epoch: int) -> str:
    return _TOKENS.make(f"{instructor.pk}-{instructor.calendar_feed_version}", feed_epoch)


def feed_body(instructor: Instructor, organization) -> CalendarFeed:
    """The feed URLs of `instructor`, signed with `organization`'s current feed epoch."""
    path = reverse(
        "instructor-calendar-feed", kwargs={"token": feed_token(instructor, organization.calendar_feed_epoch)}
    )
    url = f"{settings.BASE_URL}{path}"
    return {"url": url, "webcalUrl": "webcal" + url[url.index(":") :]}


def instructor_for_token(token: str) -> Instructor | None:
    """The instructor a feed token names, if its signature holds, its version is the current one, its epoch the
    organization's current one, the instructor is active and the organization is active; otherwise None (404)."""
    claims = _TOKENS.read(token)
    if claims is None:
        return None
    match = _VALUE.fullmatch(claims.value)
    if match is None:
        return None
    instructor_id, version = int(match.group(1)), int(match.group(2))
    return (
        Instructor.objects.select_related("organization", "contact")
        .filter(
            pk=instructor_id,
            calendar_feed_version=version,
            is_active=True,
            organization__status=OrganizationStatus.ACTIVE,
            organization__calendar_feed_epoch=claims.epoch,
        )
        .first()
    )


def rotate(instructor: Instructor) -> Instructor:
    """A new feed URL; the previous one is revoked when this commits."""
    with transaction.atomic():
        Instructor.objects.filter(pk=instructor.pk).update(calendar_feed_version=F("calendar_feed_version") + 1)
    instructor.refresh_from_db(fields=["calendar_feed_version"])
    return instructor
