"""A gym's day end to end, through the HTTP API only (plus the management commands an operator runs).

A fresh organization and key come from `create_organization` / `create_api_key`, the club from `create_club`
(clubs are read-only through the API). Every request commits for real (transactional test), so domain events,
notifications and e-mails run exactly as on the server, after commit.
"""

import datetime as dt
import io
from collections import Counter
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.core.management import call_command
from rest_framework.test import APIClient

from apps.domain_events.models import DomainEvent

pytestmark = pytest.mark.django_db(transaction=True)

MADRID = ZoneInfo("Europe/Madrid")


def command(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue().strip().splitlines()[-1]


def local(day: dt.date, hour: int, minute: int = 0) -> str:
    """An ISO date-time with the club's offset on that day (DST-proof)."""
    return dt.datetime.combine(day, dt.time(hour, minute), tzinfo=MADRID).isoformat()


def zulu(day: dt.date, hour: int, minute: int = 0) -> str:
    value = dt.datetime.combine(day, dt.time(hour, minute), tzinfo=MADRID).astimezone(dt.UTC)
    return value.strftime("%Y-%m-%dT%H:%M:%SZ")


class Api:
    """A thin JSON client that checks the status of every call and returns the body."""

    def __init__(self, token):
        self.client = APIClient()
        self.client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")

    def call(self, method, path, body=None, status=200):
        response = getattr(self.client, method)(f"/v1/platform{path}", body, format="json")
        assert response.status_code == status, (method, path, response.status_code, response.content)
        return response.json() if response.content else None

    def get(self, path, status=200):
        return self.call("get", path, status=status)

    def post(self, path, body=None, status=201):
        return self.call("post", path, body or {}, status=status)

    def patch(self, path, body, status=200):
        return self.call("patch", path, body, status=status)

    def delete(self, path, status=204):
        return self.call("delete", path, status=status)


def event_types(since_id=0) -> Counter:
    return Counter(DomainEvent.objects.filter(id__gt=since_id).values_list("type", flat=True))


def last_event_id() -> int:
    return DomainEvent.objects.order_by("-id").values_list("id", flat=True).first() or 0


def counts(api, class_id) -> dict:
    body = api.get(f"/classes/{class_id}")
    keys = ("bookedCount", "currentBookings", "waitlistCount", "spotsLeft", "availabilityStatus")
    return {k: body[k] for k in keys}


def fresh_gym(slug, *club_options):
    """A new organization, a full-access key and one club (`centro`, Madrid, 08:00-22:00) via the commands."""
    command("create_organization", "--slug", slug, "--name", slug, "--timezone", "Europe/Madrid")
    token = command("create_api_key", "--organization", slug, "--name", "e2e", "--scopes", "*")
    command(
        "create_club", f"--organization={slug}", "--slug=centro", "--name=Centro", "--timezone=Europe/Madrid",
        "--opens=08:00", "--closes=22:00", *club_options,
    )  # fmt: skip
    return Api(token)


def test_a_day_at_the_gym():
    # --- Operator setup: organization, key, club ---------------------------------------------------------------
    api = fresh_gym("e2e-gym", "--sports=padel,yoga")
    assert api.get("/me")["fullAccess"] is True
    club = api.get("/clubs/centro")
    assert club["timezone"] == "Europe/Madrid" and "rating" not in club
    club_id = club["id"]

    # A day a week or more ahead, so every booking is in the future whatever the time of the run.
    today = dt.datetime.now(MADRID).date()
    day = today + dt.timedelta(days=7 + (1 - today.weekday()) % 7)  # a Tuesday
    weekday = "tuesday"

    # --- Area type, court, room -----------------------------------------------------------------------------
    mark = last_event_id()
    padel = api.post("/area-types", {"name": "Padel court", "maxPlayers": 4})
    assert padel["slug"] == "padel-court"
    court = api.post(
        "/areas",
        {"clubId": club_id, "name": "Court 1", "areaTypeId": padel["id"], "sports": ["padel"], "hourlyRate": 20},
    )
    room = api.post("/areas", {"clubId": club_id, "name": "Studio", "sports": ["yoga"]})
    assert court["areaType"] == {"id": padel["id"], "name": "Padel court"} and room["position"] == court["position"] + 1
    assert event_types(mark) == Counter({"availability.changed": 2})
    assert api.get("/clubs/centro")["images"] == []

    # --- Block the court for an hour -------------------------------------------------------------------------
    mark = last_event_id()
    block = api.post(
        "/area-blocks",
        {"areaId": court["id"], "startTime": local(day, 10), "endTime": local(day, 11), "reason": "Repair"},
    )
    assert (block["startTime"], block["endTime"]) == (zulu(day, 10), zulu(day, 11))
    assert event_types(mark) == Counter({"area_block.created": 1, "availability.changed": 1})
    free = api.get(f"/availability?clubId={club_id}&startDate={day}&areaId={court['id']}")
    assert [(r["startTime"], r["endTime"]) for r in free["data"]] == [
        (zulu(day, 8), zulu(day, 10)),
        (zulu(day, 11), zulu(day, 22)),
    ]

    # --- A weekly class series in the room, two seats --------------------------------------------------------
    mark = last_event_id()
    series = api.post(
        "/classes",
        {
            "clubId": club_id,
            "areaId": room["id"],
            "name": "Morning yoga",
            "startTime": local(day, 9),
            "endTime": local(day, 10),
            "maxCapacity": 2,
            "priceBeforeTax": 10,
            "recurrence": {"frequency": "weekly", "daysOfWeek": [weekday], "ends": {"type": "after", "occurrences": 4}},
        },
    )
    assert series["series"]["occurrencesCreated"] == 4
    recurrence_id = series["recurrenceId"]
    occurrences = api.get(f"/classes?clubId={club_id}&ordering=startTime")
    assert occurrences["total"] == 4
    first, second = occurrences["data"][0]["id"], occurrences["data"][1]["id"]
    assert occurrences["data"][0]["recurrenceId"] == recurrence_id
    created = event_types(mark)
    assert created["class.created"] == 4 and created["class.series_changed"] == 1
    # availability.changed for a class in a room: see test_class_in_a_room_emits_availability_changed
    assert counts(api, first) == {
        "bookedCount": 0,
        "currentBookings": 0,
        "waitlistCount": 0,
        "spotsLeft": 2,
        "availabilityStatus": "available",
    }
    room_free = api.get(f"/availability?clubId={club_id}&startDate={day}&areaId={room['id']}")
    assert [(r["startTime"], r["endTime"]) for r in room_free["data"]] == [
        (zulu(day, 8), zulu(day, 9)),
        (zulu(day, 10), zulu(day, 22)),
    ]

    # --- Contacts ----------------------------------------------------------------------------------------------
    ana = api.post("/contacts", {"firstName": "Ana", "lastName": "Lopez", "email": "ana@example.com"})
    ben = api.post("/contacts", {"firstName": "Ben", "lastName": "Ruiz", "email": "ben@example.com"})
    cruz = api.post("/contacts", {"firstName": "Cruz", "lastName": "Diaz", "email": "cruz@example.com"})

    # --- Book into the class until it is full --------------------------------------------------------------
    mark = last_event_id()
    ana_seat = api.post(f"/classes/{first}/bookings", {"contactId": ana["id"]})
    assert ana_seat["status"] == "confirmed" and ana_seat["classId"] == first
    assert counts(api, first)["spotsLeft"] == 1
    ben_seat = api.post(f"/classes/{first}/bookings", {"contactId": ben["id"]})
    assert counts(api, first) == {
        "bookedCount": 2,
        "currentBookings": 2,
        "waitlistCount": 0,
        "spotsLeft": 0,
        "availabilityStatus": "full",
    }
    full = api.post(f"/classes/{first}/bookings", {"contactId": cruz["id"]}, status=409)
    assert full["code"] == "CLASS_FULL" and full["details"] == {"allowWaitlist": True}
    assert event_types(mark) == Counter({"booking.created": 2, "transaction.created": 2})  # priced seats

    # --- Join the waitlist ---------------------------------------------------------------------------------
    mark = last_event_id()
    entry = api.post(f"/classes/{first}/waitlist", {"contactId": cruz["id"]})
    assert entry["status"] == "pending" and entry["position"] == 1
    assert counts(api, first)["waitlistCount"] == 1
    assert event_types(mark) == Counter({"waitlist.joined": 1})

    # --- Cancel a seat: the waiting contact is notified by e-mail --------------------------------------------
    mark = last_event_id()
    mail.outbox.clear()
    cancelled = api.post(f"/bookings/{ana_seat['bookingId']}/cancel", {"reason": "sick"}, status=200)
    assert cancelled["status"] == "cancelled"
    waitlist = api.get(f"/classes/{first}/waitlist")
    assert [(e["id"], e["status"]) for e in waitlist["data"]] == [(entry["id"], "notified")]
    assert waitlist["data"][0]["notifiedAt"] is not None
    assert [m.to for m in mail.outbox] == [["cruz@example.com"]]
    assert counts(api, first) == {
        "bookedCount": 1,
        "currentBookings": 1,
        "waitlistCount": 1,  # a notified entry still waits until promoted
        "spotsLeft": 1,
        "availabilityStatus": "available",
    }
    # the unpaid seat's charge is voided with it
    assert event_types(mark) == Counter({"booking.cancelled": 1, "waitlist.notified": 1, "transaction.updated": 1})

    # --- Check in the remaining seat -----------------------------------------------------------------------
    mark = last_event_id()
    checkin = api.post("/checkins", {"bookingId": ben_seat["bookingId"]})
    assert checkin["method"] == "booking" and checkin["classId"] == first and checkin["contactId"] == ben["id"]
    assert api.get(f"/bookings/{ben_seat['bookingId']}")["status"] == "checked_in"
    again = api.post("/checkins", {"bookingId": ben_seat["bookingId"]}, status=409)
    assert again["code"] == "ALREADY_CHECKED_IN" and again["details"] == {"checkinId": checkin["id"]}
    assert counts(api, first)["bookedCount"] == 1
    types = event_types(mark)
    assert types["checkin.created"] == 1 and types["booking.updated"] == 1

    # --- Book the court: over the block is 409, next to it is fine -------------------------------------------
    mark = last_event_id()
    court_body = {"areaId": court["id"], "contactId": ben["id"]}
    taken = api.post(
        "/bookings", {**court_body, "startTime": local(day, 10, 30), "endTime": local(day, 11, 30)}, status=409
    )
    assert taken["code"] == "SLOT_UNAVAILABLE"
    assert taken["details"] == {"conflicts": [{"type": "block", "id": block["id"]}]}
    court_booking = api.post("/bookings", {**court_body, "startTime": local(day, 11), "endTime": local(day, 12)})
    assert court_booking["status"] == "confirmed" and court_booking["type"] == "area"
    assert (court_booking["startTime"], court_booking["endTime"]) == (zulu(day, 11), zulu(day, 12))
    assert event_types(mark) == Counter({"booking.created": 1, "availability.changed": 1, "transaction.created": 1})
    free = api.get(f"/availability?clubId={club_id}&startDate={day}&areaId={court['id']}")
    assert [(r["startTime"], r["endTime"]) for r in free["data"]] == [
        (zulu(day, 8), zulu(day, 10)),
        (zulu(day, 12), zulu(day, 22)),
    ]

    # Ben also holds a seat in next week's class.
    next_seat = api.post(f"/classes/{second}/bookings", {"contactId": ben["id"]})
    assert counts(api, second)["bookedCount"] == 1

    # --- Archive Ben: future bookings are cancelled, the checked-in seat stays --------------------------------
    mark = last_event_id()
    archived = api.post(f"/contacts/{ben['id']}/archive", {"reason": "moved away"}, status=200)
    assert archived["status"] == "archived"
    assert api.get(f"/bookings/{court_booking['id']}")["status"] == "cancelled"
    assert api.get(f"/bookings/{next_seat['bookingId']}")["status"] == "cancelled"
    assert api.get(f"/bookings/{ben_seat['bookingId']}")["status"] == "checked_in"
    assert counts(api, second) == {
        "bookedCount": 0,
        "currentBookings": 0,
        "waitlistCount": 0,
        "spotsLeft": 2,
        "availabilityStatus": "available",
    }
    types = event_types(mark)
    assert types["contact.archived"] == 1 and types["booking.cancelled"] == 2
    assert types["availability.changed"] == 1  # the court booking frees its hour; a class seat frees no area time
    free = api.get(f"/availability?clubId={club_id}&startDate={day}&areaId={court['id']}")
    assert [(r["startTime"], r["endTime"]) for r in free["data"]] == [
        (zulu(day, 8), zulu(day, 10)),
        (zulu(day, 11), zulu(day, 22)),
    ]

    # --- Unblock: the whole day is free again --------------------------------------------------------------
    mark = last_event_id()
    api.delete(f"/area-blocks/{block['id']}")
    assert event_types(mark) == Counter({"area_block.deleted": 1, "availability.changed": 1})
    free = api.get(f"/availability?clubId={club_id}&startDate={day}&areaId={court['id']}")
    assert [(r["startTime"], r["endTime"]) for r in free["data"]] == [(zulu(day, 8), zulu(day, 22))]

    # Every event is the organization's own and carries the documented availability payload.
    payloads = DomainEvent.objects.filter(type="availability.changed").values_list("data", flat=True)
    for data in payloads:
        assert set(data) == {"organizationId", "clubId", "areaId", "date", "startTime", "endTime", "cause"}
        assert data["clubId"] == club_id


def test_class_in_a_room_emits_availability_changed():
    api = fresh_gym("e2e-class-room")
    club_id = api.get("/clubs/centro")["id"]
    room = api.post("/areas", {"clubId": club_id, "name": "Studio"})
    day = dt.datetime.now(MADRID).date() + dt.timedelta(days=8)
    mark = last_event_id()
    yoga = api.post(
        "/classes",
        {
            "clubId": club_id,
            "areaId": room["id"],
            "name": "Yoga",
            "startTime": local(day, 9),
            "endTime": local(day, 10),
        },
    )
    events = list(DomainEvent.objects.filter(id__gt=mark, type="availability.changed").values_list("data", flat=True))
    assert [(e["areaId"], e["cause"], e["startTime"], e["endTime"]) for e in events] == [
        (room["id"], "class", zulu(day, 9), zulu(day, 10))
    ]
    mark = last_event_id()
    api.post(f"/classes/{yoga['id']}/cancel", status=200)
    assert event_types(mark)["availability.changed"] == 1
