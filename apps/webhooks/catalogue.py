"""The event catalogue: every type a webhook can receive, the read scope it needs and the shape of its `data`.

A `data` shape that is a resource's (Booking, Contact, ...) is the object exactly as a GET returns it; the same
declaration narrows a stored payload to a subscription's (or a feed reader's) scopes (`apps.api.resources.redact`).
"""

import datetime as dt
from dataclasses import dataclass
from typing import Literal, TypedDict

from apps.billing.resources import Plan
from apps.bookings.resources import Booking, CheckIn, WaitlistEntry
from apps.classes.resources import Class
from apps.contacts.resources import Contact
from apps.content.resources import ContentItem
from apps.events.resources import Event
from apps.forms.resources import Form
from apps.instructors.resources import Instructor
from apps.invoices.resources import Invoice
from apps.memberships.resources import Membership
from apps.occupancy.resources import AreaBlock
from apps.transactions.resources import Transaction


class AvailabilityChange(TypedDict):
    organizationId: int
    clubId: int
    areaId: int
    date: dt.date
    startTime: dt.datetime | None
    endTime: dt.datetime | None
    cause: Literal["booking", "block", "class", "area"]


class ClassDeleted(TypedDict):
    id: int
    recurrenceId: int | None


class SeriesChange(TypedDict):
    recurrenceId: int
    occurrencesCreated: int
    occurrencesRemoved: int
    status: str


class WebsiteRelease(TypedDict):
    websiteId: int
    version: int
    publishedAt: dt.datetime


@dataclass(frozen=True)
class EventType:
    name: str
    scope: str
    shape: type
    description: str


def _types(resource: str, actions: str, scope: str, shape: type, description: str) -> list[EventType]:
    return [EventType(f"{resource}.{action}", scope, shape, description) for action in actions.split()]


EVENT_TYPES: dict[str, EventType] = {
    t.name: t
    for t in [
        *_types(
            "availability",
            "changed",
            "areas:read",
            AvailabilityChange,
            "Bookable time of an area changed (booking, block, class or area).",
        ),
        *_types("booking", "created updated cancelled", "bookings:read", Booking, "Any booking."),
        *_types("waitlist", "joined notified promoted removed", "bookings:read", WaitlistEntry, "Waitlist entries."),
        *_types("checkin", "created", "checkins:read", CheckIn, "A check-in."),
        *_types("class", "created updated cancelled", "classes:read", Class, "One class occurrence."),
        *_types("class", "deleted", "classes:read", ClassDeleted, "One class occurrence deleted."),
        *_types("class", "series_changed", "classes:read", SeriesChange, "A recurring series created, moved, ended."),
        *_types("area_block", "created deleted", "areas:read", AreaBlock, "An area blocked or unblocked."),
        *_types("contact", "created updated archived restored", "contacts:read", Contact, "Contacts."),
        *_types(
            "membership",
            "created updated paused resumed cancelled expired",
            "memberships:read",
            Membership,
            "Membership lifecycle.",
        ),
        *_types("transaction", "created updated refunded", "transactions:read", Transaction, "Charges and refunds."),
        *_types("invoice", "created updated", "invoices:read", Invoice, "Invoices issued or changed."),
        *_types("event", "created updated published unpublished cancelled deleted", "events:read", Event, "Events."),
        *_types("plan", "created updated retired deleted", "plans:read", Plan, "Plans."),
        *_types("instructor", "created updated", "instructors:read", Instructor, "Instructors."),
        *_types("form", "created updated", "forms:read", Form, "Forms (never answers)."),
        *_types("content_item", "created updated deleted", "content:read", ContentItem, "Content items."),
        *_types("website", "published rolled_back", "website:read", WebsiteRelease, "Website releases."),
    ]
}

WILDCARD = "*"


def receivable(types: list[str], scopes) -> set[str]:
    """The event types a subscription to `types` (or `["*"]`) receives under `scopes`."""
    names = EVENT_TYPES if WILDCARD in types else types
    return {name for name in names if name in EVENT_TYPES and EVENT_TYPES[name].scope in scopes}
