"""The instructor's private calendar feed URL: signed, needs no credential, revocable by rotation.

The URL's token is `<instructor id>-<feed version>` signed with the server's `SECRET_KEY` (HMAC, Django's
`Signer` with its own salt). Rotating increments `Instructor.calendar_feed_version`, so every URL issued before
answers 404 at once; so does a token with a bad signature. Changing `SECRET_KEY` invalidates every feed URL.
"""

import re
from typing import TypedDict

from django.conf import settings
from django.core import signing
from django.db import transaction
from django.db.models import F
from django.urls import reverse

from apps.organizations.choices import OrganizationStatus

from .models import Instructor

SALT = "apps.instructors.calendar-feed"
_VALUE = re.compile(r"^(\d{1,18})-(\d{1,10})$")


class CalendarFeed(TypedDict):
    """The instructor's private iCalendar feed: `url` (https or http) and `webcalUrl`, the same URL with the
    `webcal` scheme that calendar apps subscribe to."""

    url: str
    webcalUrl: str


def _signer() -> signing.Signer:
    return signing.Signer(salt=SALT, sep=".")


def feed_token(instructor: Instructor) -> str:
    return _signer().sign(f"{instructor.pk}-{instructor.calendar_feed_version}")


def feed_body(instructor: Instructor) -> CalendarFeed:
    path = reverse("instructor-calendar-feed", kwargs={"token": feed_token(instructor)})
    url = f"{settings.BASE_URL}{path}"
    return {"url": url, "webcalUrl": "webcal" + url[url.index(":") :]}


def instructor_for_token(token: str) -> Instructor | None:
    """The instructor a feed token names, if its signature holds, its version is the current one, the instructor
    is active and the organization is active; otherwise None (the feed answers 404)."""
    try:
        value = _signer().unsign(token)
    except signing.BadSignature:
        return None
    match = _VALUE.match(value)
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
        )
        .first()
    )


def rotate(instructor: Instructor) -> Instructor:
    """A new feed URL; the previous one is revoked when this commits."""
    with transaction.atomic():
        Instructor.objects.filter(pk=instructor.pk).update(calendar_feed_version=F("calendar_feed_version") + 1)
    instructor.refresh_from_db(fields=["calendar_feed_version"])
    return instructor
