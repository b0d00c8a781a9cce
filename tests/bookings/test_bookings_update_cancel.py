import datetime as dt

import pytest

from apps.bookings.models import Booking, WaitlistEntry
from apps.classes.models import ClassOccurrence
from apps.contacts.choices import ContactStatus
from apps.domain_events.models import DomainEvent
from tests.class_bookings.factories import make_class_booking
from tests.factories import make_class

from .conftest import iso
from .factories import area_booking, area_for, contact_for

URL = "/v1/platform/bookings"


def create(api, area, contact, start, hours=1, **extra):
    response = api.post(
        URL,
        {
            "areaId": area.id,
            "contactId": contact.id,
            "startTime": iso(start),
            "endTime": iso(start + dt.timedelta(hours=hours)),
            **extra,
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    return response.json()


@pytest.fixture
def klass(organization, club):
    start = (dt.datetime.now(dt.UTC) + dt.timedelta(days=4)).replace(microsecond=0)
    return ClassOccurrence.objects.create(
        organization=organization,
        club=club,
        name="Yoga",
        start_time=start,
        end_time=start + dt.timedelta(hours=1),
        max_capacity=1,
        price_before_tax="10.00",
    )


def class_booking(organization, klass, contact, **fields):
    return Booking.objects.create(
        organization=organization,
        type="class",
        club=klass.club,
        class_occurrence=klass,
        contact=contact,
        start_time=klass.start_time,
        end_time=klass.end_time,
        **fields,
    )


# --- list ---------------------------------------------------------------------------------------------------


def test_list_filters_and_ordering(api, organization, club, area, contact, klass, slot):
    a1 = create(api, area, contact, slot[0] + dt.timedelta(hours=2))
    a2 = create(api, area, contact, slot[0])
    other = contact_for(organization)
    c1 = class_booking(organization, klass, other, status="pending", source="portal", price_before_tax="10.00")

    def ids(query=""):
        response = api.get(f"{URL}{query}")
        assert response.status_code == 200, response.content
        return [row["id"] for row in response.json()["data"]]

    assert ids() == [a2["id"], a1["id"], c1.id]  # startTime
    assert ids("?ordering=-startTime") == [c1.id, a1["id"], a2["id"]]
    assert ids("?ordering=createdAt") == [a1["id"], a2["id"], c1.id]
    assert ids("?type=class") == [c1.id]
    assert ids("?type=area,class") == [a2["id"], a1["id"], c1.id]
    assert ids(f"?classId={klass.id}") == [c1.id]
    assert ids(f"?areaId={area.id}") == [a2["id"], a1["id"]]
    assert ids(f"?clubId={club.id}&contactId={other.id}") == [c1.id]
    assert ids("?status=pending") == [c1.id]
    assert ids("?status=confirmed,pending&source=api") == [a2["id"], a1["id"]]
    day = klass.start_time.astimezone(dt.timezone(dt.timedelta(hours=1))).date().isoformat()
    assert c1.id in ids(f"?clubId={club.id}&startDate={day}&endDate={day}")
    assert ids(f"?startDate={iso(slot[0] + dt.timedelta(hours=1))}&endDate={iso(slot[0] + dt.timedelta(hours=3))}") == [
        a1["id"]
    ]
    row = api.get(f"{URL}?type=class").json()["data"][0]
    assert row["type"] == "class" and row["classId"] == klass.id and row["players"] == [] and row["playerCount"] == 1
    assert row["price"] == 12.1 and row["areaId"] is None and row["area"] is None


@pytest.mark.parametrize("query", ["?type=court", "?status=done", "?clubId=x", "?ordering=price", "?startDate=nope"])
def test_list_bad_params(api, query):
    response = api.get(f"{URL}{query}")
    assert response.status_code == 400 and response.json()["code"] == "VALIDATION_ERROR"


def test_list_query_count_constant_for_1_and_200_rows(api, organization, django_assert_max_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    area = area_for(organization)
    contact = contact_for(organization)
    area_booking(organization, area=area, contact=contact)
    api.get(URL)  # warm the credential
    with CaptureQueriesContext(connection) as one:
        assert api.get(f"{URL}?limit=200").json()["total"] == 1
    for _ in range(199):
        area_booking(organization, area=area, contact=contact)
    with CaptureQueriesContext(connection) as many:
        assert len(api.get(f"{URL}?limit=200").json()["data"]) == 200
    assert len(many) == len(one)


# --- update ---------------------------------------------------------------------------------------------------


def test_reschedule_checks_conflicts_excluding_itself(
    api, organization, area, contact, slot, django_capture_on_commit_callbacks
):
    booking = create(api, area, contact, slot[0])
    blocker = create(api, area, contact, slot[0] + dt.timedelta(hours=2))
    DomainEvent.objects.all().delete()  # the events of the two creates
    # extending over itself is fine
    with django_capture_on_commit_callbacks(execute=True):
        response = api.patch(
            f"{URL}/{booking['id']}", {"endTime": iso(slot[0] + dt.timedelta(minutes=90))}, format="json"
        )
    assert response.status_code == 200, response.content
    assert response.json()["durationMinutes"] == 90
    assert response.json()["priceBeforeTax"] == 30.0  # re-quoted: 90 minutes at 20.00 an hour
    updated = DomainEvent.objects.get(type="booking.updated")
    assert updated.changed_fields == ["endTime", "priceBeforeTax", "price", "payment"]
    assert DomainEvent.objects.filter(type="availability.changed").count() == 2
    # into the other booking: 409
    response = api.patch(
        f"{URL}/{booking['id']}",
        {"startTime": iso(slot[0] + dt.timedelta(hours=2)), "endTime": iso(slot[0] + dt.timedelta(hours=3))},
        format="json",
    )
    assert response.status_code == 409
    assert response.json()["details"]["conflicts"] == [{"type": "booking", "id": blocker["id"]}]
    # to another court at the same time
    court2 = area_for(organization, name="Court 2")
    response = api.patch(f"{URL}/{booking['id']}", {"areaId": court2.id}, format="json")
    assert response.status_code == 200 and response.json()["area"] == {"id": court2.id, "name": "Court 2"}
    # end before start
    response = api.patch(f"{URL}/{booking['id']}", {"endTime": iso(slot[0] - dt.timedelta(hours=1))}, format="json")
    assert response.status_code == 400


def test_patch_price_sport_notes_and_status(api, area, contact, slot):
    booking = create(api, area, contact, slot[0], status="pending")
    response = api.patch(
        f"{URL}/{booking['id']}",
        {"priceBeforeTax": 10, "sport": "tennis", "notes": None, "status": "confirmed", "price": 999},
        format="json",
    )
    assert response.status_code == 200
    body = response.json()
    assert (body["priceBeforeTax"], body["price"], body["payment"]["amount"]) == (10.0, 12.1, 12.1)
    assert (body["sport"], body["notes"], body["status"]) == ("tennis", None, "confirmed")
    response = api.patch(f"{URL}/{booking['id']}", {"status": "pending"}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "INVALID_STATE_TRANSITION"
    assert response.json()["details"] == {"currentStatus": "confirmed"}
    response = api.patch(f"{URL}/{booking['id']}", {"status": "cancelled"}, format="json")
    assert response.status_code == 400


def test_patch_cancelled_booking_is_409(api, area, contact, slot):
    booking = create(api, area, contact, slot[0])
    api.post(f"{URL}/{booking['id']}/cancel")
    response = api.patch(f"{URL}/{booking['id']}", {"notes": "x"}, format="json")
    assert response.status_code == 409
    assert response.json()["details"] == {"currentStatus": "cancelled"}


def test_patch_class_booking_notes_ok_area_fields_400(api, organization, klass, contact):
    booking = class_booking(organization, klass, contact)
    response = api.patch(f"{URL}/{booking.id}", {"notes": "front row"}, format="json")
    assert response.status_code == 200 and response.json()["notes"] == "front row"
    response = api.patch(f"{URL}/{booking.id}", {"sport": "yoga"}, format="json")
    assert response.status_code == 400 and "sport" in response.json()["details"]["fields"]


def test_patch_class_booking_move_to_other_class(api, organization, club, klass, contact):
    target = ClassOccurrence.objects.create(
        organization=organization,
        club=club,
        name="Yoga 2",
        start_time=klass.start_time + dt.timedelta(days=1),
        end_time=klass.end_time + dt.timedelta(days=1),
    )
    booking = class_booking(organization, klass, contact)
    response = api.patch(f"{URL}/{booking.id}", {"classId": target.id}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["classId"] == target.id
    assert response.json()["startTime"] == iso(target.start_time)


def test_put_not_offered(api, area, contact, slot):
    booking = create(api, area, contact, slot[0])
    assert api.put(f"{URL}/{booking['id']}", {}, format="json").status_code == 405
    assert api.delete(f"{URL}/{booking['id']}").status_code == 405


def test_pending_class_booking_is_confirmed_by_patch(
    api, organization, club, contact, django_capture_on_commit_callbacks
):
    """Booking / Class booking `pending` to `confirmed` by PATCH (or payment)."""
    yoga = make_class(organization, club)
    booking = make_class_booking(yoga, contact, status="pending")
    with django_capture_on_commit_callbacks(execute=True):
        response = api.patch(f"{URL}/{booking.pk}", {"status": "confirmed"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "confirmed" and response.json()["type"] == "class"
    booking.refresh_from_db()
    assert booking.status == "confirmed"
    event = DomainEvent.objects.get(type="booking.updated")
    assert event.changed_fields == ["status"] and event.data["status"] == "confirmed"
    # the roster row shows it too
    (row,) = api.get(f"/v1/platform/classes/{yoga.pk}/bookings").json()["data"]
    assert row["bookingId"] == booking.pk and row["status"] == "confirmed"


def test_class_booking_status_other_moves_are_409(api, organization, club, contact):
    yoga = make_class(organization, club)
    confirmed = make_class_booking(yoga, contact, status="confirmed")
    response = api.patch(f"{URL}/{confirmed.pk}", {"status": "pending"}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "INVALID_STATE_TRANSITION"
    assert response.json()["details"] == {"currentStatus": "confirmed"}
    checked_in = make_class_booking(yoga, status="checked_in")
    response = api.patch(f"{URL}/{checked_in.pk}", {"status": "confirmed"}, format="json")
    assert response.status_code == 409 and response.json()["details"] == {"currentStatus": "checked_in"}
    response = api.patch(f"{URL}/{confirmed.pk}", {"status": "checked_in"}, format="json")
    assert response.status_code == 400 and "status" in response.json()["details"]["fields"]
    assert Booking.objects.get(pk=confirmed.pk).status == "confirmed"


# --- cancel ---------------------------------------------------------------------------------------------------


def test_cancel_area_booking(api, area, contact, slot, django_capture_on_commit_callbacks, mailoutbox):
    booking = create(api, area, contact, slot[0])
    DomainEvent.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"{URL}/{booking['id']}/cancel", {"reason": "rain", "notifyCustomer": True}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "cancelled" and body["cancellationReason"] == "rain" and body["cancelledAt"]
    # The unpaid charge of the booking is voided with it.
    assert sorted(DomainEvent.objects.values_list("type", flat=True)) == [
        "availability.changed",
        "booking.cancelled",
        "transaction.updated",
    ]
    assert [m.to for m in mailoutbox] == [["ana@example.com"]]
    again = api.post(f"{URL}/{booking['id']}/cancel")
    assert again.status_code == 409 and again.json()["details"] == {"currentStatus": "cancelled"}


def test_cancel_checked_in_is_409(api, organization, area, contact):
    booking = area_booking(organization, area=area, contact=contact, status="checked_in")
    response = api.post(f"{URL}/{booking.id}/cancel")
    assert response.status_code == 409
    assert response.json()["code"] == "INVALID_STATE_TRANSITION"
    assert response.json()["details"] == {"currentStatus": "checked_in"}


def test_cancel_class_booking_notifies_first_pending_waitlist_entry(
    api, organization, klass, contact, django_capture_on_commit_callbacks
):
    booking = class_booking(organization, klass, contact)
    first = contact_for(organization)
    second = contact_for(organization)
    e1 = WaitlistEntry.objects.create(organization=organization, class_occurrence=klass, contact=first, position=1)
    e2 = WaitlistEntry.objects.create(organization=organization, class_occurrence=klass, contact=second, position=2)
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"{URL}/{booking.id}/cancel")
    assert response.status_code == 200
    e1.refresh_from_db()
    e2.refresh_from_db()
    assert (e1.status, e2.status) == ("notified", "pending")
    types = set(DomainEvent.objects.values_list("type", flat=True))
    assert "booking.cancelled" in types and "availability.changed" not in types


def test_archived_contact_bookings_still_listed(api, organization, area):
    c = contact_for(organization, status=ContactStatus.ARCHIVED)
    b = area_booking(organization, area=area, contact=c)
    assert api.get(f"{URL}/{b.id}").json()["contactName"] == c.name
