"""Check-ins: GET list/one, POST of a booking or a walk-in on a membership."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.bookings.models import Booking, CheckIn
from apps.domain_events.models import DomainEvent
from tests.class_bookings.factories import make_checkin, make_class_booking
from tests.factories import make_class, make_club, make_contact, make_membership, make_plan

URL = "/v1/platform/checkins"


def z(moment):
    return moment.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


@pytest.fixture
def yoga(organization, club):
    return make_class(organization, club, max_capacity=2)


def test_check_in_a_booking(api, organization, yoga, contact, django_capture_on_commit_callbacks):
    booking = make_class_booking(yoga, contact)
    at = "2030-01-05T09:58:00+01:00"
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(URL, {"bookingId": booking.pk, "checkedInAt": at}, format="json")
    assert response.status_code == 201, response.content
    checkin = CheckIn.objects.get()
    assert response["Location"] == f"{URL}/{checkin.pk}"
    body = response.json()
    assert body == {
        "id": checkin.pk,
        "method": "booking",
        "bookingId": booking.pk,
        "membershipId": None,
        "classId": yoga.pk,
        "clubId": yoga.club_id,
        "contactId": contact.pk,
        "contactName": "Ana Lopez",
        "source": "api",
        "checkedInAt": "2030-01-05T08:58:00Z",
        "createdAt": body["createdAt"],
    }
    booking.refresh_from_db()
    assert booking.status == "checked_in" and z(booking.checked_in_at) == "2030-01-05T08:58:00Z"
    roster = api.get(f"/v1/platform/classes/{yoga.pk}/bookings").json()["data"][0]
    assert roster["checkedIn"] is True and roster["checkedInAt"] == "2030-01-05T08:58:00Z"
    assert roster["status"] == "checked_in"
    assert DomainEvent.objects.get(type="checkin.created").data["id"] == checkin.pk
    updated = DomainEvent.objects.get(type="booking.updated")
    assert set(updated.changed_fields) == {"status", "checkedIn", "checkedInAt"}


def test_checked_in_defaults_to_now_and_twice_is_409(api, yoga):
    booking = make_class_booking(yoga)
    before = timezone.now()
    first = api.post(URL, {"bookingId": booking.pk}, format="json").json()
    assert dt.datetime.fromisoformat(first["checkedInAt"].replace("Z", "+00:00")) >= before.replace(microsecond=0)
    response = api.post(URL, {"bookingId": booking.pk}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "ALREADY_CHECKED_IN"
    assert response.json()["details"] == {"checkinId": first["id"]}


def test_cancelled_booking_cannot_check_in(api, yoga):
    booking = make_class_booking(yoga, status="cancelled")
    response = api.post(URL, {"bookingId": booking.pk}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "INVALID_STATE_TRANSITION"
    assert response.json()["details"] == {"currentStatus": "cancelled"}
    assert not CheckIn.objects.exists()


def test_walk_in_at_a_club_consumes_a_use(api, organization, club, contact):
    membership = make_membership(organization, contact, make_plan(organization, max_uses=10), uses_remaining=2)
    response = api.post(URL, {"membershipId": membership.pk, "clubId": club.pk}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["method"], body["membershipId"], body["clubId"], body["classId"], body["bookingId"]) == (
        "membership",
        membership.pk,
        club.pk,
        None,
        None,
    )
    assert body["contactId"] == contact.pk
    membership.refresh_from_db()
    assert membership.uses_remaining == 1
    api.post(URL, {"membershipId": membership.pk, "clubId": club.pk}, format="json")
    response = api.post(URL, {"membershipId": membership.pk, "clubId": club.pk}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "MEMBERSHIP_NOT_VALID"
    assert response.json()["details"] == {"reason": "no_uses_left"}


def test_walk_in_into_a_class_takes_a_seat(api, organization, yoga, contact):
    membership = make_membership(organization, contact)
    response = api.post(URL, {"membershipId": membership.pk, "classId": yoga.pk}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["classId"] == yoga.pk and response.json()["clubId"] == yoga.club_id
    again = api.post(URL, {"membershipId": membership.pk, "classId": yoga.pk}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "ALREADY_CHECKED_IN"

    make_class_booking(yoga)  # the second (last) seat
    other = make_membership(organization, make_contact(organization))
    response = api.post(URL, {"membershipId": other.pk, "classId": yoga.pk}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "CLASS_FULL" and response.json()["details"] == {"allowWaitlist": True}
    # The walk-in also blocks a booking.
    response = api.post(
        f"/v1/platform/classes/{yoga.pk}/bookings", {"contactId": make_contact(organization).pk}, format="json"
    )
    assert response.json()["code"] == "CLASS_FULL"


def test_walk_in_into_a_class_rules(api, organization, club, yoga, contact):
    booking = make_class_booking(yoga, contact)
    membership = make_membership(organization, contact)
    response = api.post(URL, {"membershipId": membership.pk, "classId": yoga.pk}, format="json")
    assert response.json()["code"] == "ALREADY_BOOKED" and response.json()["details"] == {"bookingId": booking.pk}

    areas_only = make_membership(organization, make_contact(organization), make_plan(organization, scopes=["areas"]))
    response = api.post(URL, {"membershipId": areas_only.pk, "classId": yoga.pk}, format="json")
    assert response.json()["details"] == {"reason": "not_valid_for_classes"}

    paused = make_membership(organization, make_contact(organization), status="paused")
    response = api.post(URL, {"membershipId": paused.pk, "clubId": club.pk}, format="json")
    assert response.status_code == 409 and response.json()["details"] == {"reason": "not_active"}

    yoga.status = "cancelled"
    yoga.save()
    fresh = make_membership(organization, make_contact(organization))
    response = api.post(URL, {"membershipId": fresh.pk, "classId": yoga.pk}, format="json")
    assert response.json()["code"] == "CLASS_CANCELLED"


@pytest.mark.parametrize(
    "body, field",
    [
        ({}, "nonFieldErrors"),
        ({"bookingId": "BOOKING", "membershipId": "MEMBERSHIP"}, "nonFieldErrors"),
        ({"membershipId": "MEMBERSHIP"}, "clubId"),
        ({"membershipId": "MEMBERSHIP", "classId": "CLASS", "clubId": "OTHER_CLUB"}, "clubId"),
        ({"bookingId": "BOOKING", "clubId": "CLUB"}, "clubId"),
        ({"bookingId": "BOOKING", "checkedInAt": "2030-01-05T09:58:00"}, "checkedInAt"),
        ({"bookingId": "FOREIGN_BOOKING"}, "bookingId"),
        ({"membershipId": "FOREIGN_MEMBERSHIP", "clubId": "CLUB"}, "membershipId"),
    ],
)
def test_invalid_bodies(api, organization, other_organization, club, yoga, contact, body, field):
    values = {
        "BOOKING": make_class_booking(yoga).pk,
        "MEMBERSHIP": make_membership(organization, contact).pk,
        "CLASS": yoga.pk,
        "CLUB": club.pk,
        "OTHER_CLUB": make_club(organization).pk,
        "FOREIGN_BOOKING": make_class_booking(make_class(other_organization)).pk,
        "FOREIGN_MEMBERSHIP": make_membership(other_organization, make_contact(other_organization)).pk,
    }
    body = {k: values.get(v, v) for k, v in body.items()}
    response = api.post(URL, body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "VALIDATION_ERROR"
    assert field in response.json()["details"]["fields"]


def test_get_one_and_other_organization(api, organization, other_organization, contact):
    checkin = make_checkin(organization, contact=contact)
    body = api.get(f"{URL}/{checkin.pk}").json()
    assert body["id"] == checkin.pk and body["contactName"] == "Ana Lopez"
    assert api.get(f"{URL}/{make_checkin(other_organization).pk}").status_code == 404
    assert api.patch(f"{URL}/{checkin.pk}", {}, format="json").status_code == 405
    assert api.delete(f"{URL}/{checkin.pk}").status_code == 405


def test_list_filters_and_ordering(api, organization, other_organization, club, yoga):
    base = dt.datetime(2030, 3, 10, 12, 0, tzinfo=dt.UTC)
    other_club = make_club(organization, timezone="UTC")
    membership = make_membership(organization, make_contact(organization))
    booking = make_class_booking(yoga)
    a = make_checkin(organization, club=club, checked_in_at=base, method="membership", membership=membership)
    b = make_checkin(
        organization, club=club, checked_in_at=base + dt.timedelta(hours=1), method="booking", booking=booking
    )
    c = make_checkin(
        organization, club=club, class_occurrence=yoga, checked_in_at=base - dt.timedelta(days=1), method="membership"
    )
    d = make_checkin(organization, club=other_club, checked_in_at=base + dt.timedelta(hours=2))
    make_checkin(other_organization)

    def ids(query=""):
        response = api.get(f"{URL}?{query}")
        assert response.status_code == 200, response.content
        return [row["id"] for row in response.json()["data"]]

    assert ids() == [d.pk, b.pk, a.pk, c.pk]
    assert ids("ordering=checkedInAt") == [c.pk, a.pk, b.pk, d.pk]
    assert ids(f"clubId={club.pk}") == [b.pk, a.pk, c.pk]
    assert ids(f"classId={yoga.pk}") == [c.pk]
    assert ids(f"bookingId={booking.pk}") == [b.pk]
    assert ids(f"contactId={a.contact_id}") == [a.pk]
    assert ids(f"membershipId={membership.pk}") == [a.pk]
    assert ids("method=booking") == [b.pk]
    assert ids("method=booking,membership") == [d.pk, b.pk, a.pk, c.pk]
    assert ids(f"clubId={club.pk}&startDate=2030-03-10&endDate=2030-03-10") == [b.pk, a.pk]
    assert ids("startDate=2030-03-10T12:30:00Z") == [d.pk, b.pk]
    for bad in ("method=walkin", "clubId=x", "ordering=name", "startDate=2030-03-11&endDate=2030-03-10"):
        assert api.get(f"{URL}?{bad}").status_code == 400, bad


def test_list_query_count_is_constant(api, organization):
    make_checkin(organization)
    api.get(URL)
    with CaptureQueriesContext(connection) as one:
        api.get(f"{URL}?limit=200")
    for _ in range(60):
        make_checkin(organization)
    with CaptureQueriesContext(connection) as many:
        assert len(api.get(f"{URL}?limit=200").json()["data"]) == 61
    assert len(many) == len(one)


def test_scopes(client_for, organization, yoga):
    booking = make_class_booking(yoga)
    reader = client_for("checkins:read")
    assert reader.get(URL).status_code == 200
    response = reader.post(URL, {"bookingId": booking.pk}, format="json")
    assert response.status_code == 403
    assert response.json() == {"error": "Insufficient access scope", "requiredScope": "checkins:write"}
    assert client_for("checkins:write").post(URL, {"bookingId": booking.pk}, format="json").status_code == 201
    assert Booking.objects.get(pk=booking.pk).status == "checked_in"


@pytest.mark.django_db(transaction=True)
def test_concurrent_walk_ins_never_overbook(organization, club, make_token):
    import threading

    from rest_framework.test import APIClient

    occurrence = make_class(organization, club, max_capacity=3)
    memberships = [make_membership(organization, make_contact(organization)) for _ in range(12)]
    token = make_token("*")
    barrier = threading.Barrier(len(memberships))
    results = []

    def worker(membership):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
        try:
            barrier.wait()
            response = client.post(URL, {"membershipId": membership.pk, "classId": occurrence.pk}, format="json")
            results.append((response.status_code, response.json().get("code")))
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(m,)) for m in memberships]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [(201, None)] * 3 + [(409, "CLASS_FULL")] * 9
    assert CheckIn.objects.filter(class_occurrence=occurrence).count() == 3


def test_pending_area_booking_can_check_in(api, organization, area, contact):
    start = timezone.now().replace(microsecond=0) + dt.timedelta(hours=2)
    booking = Booking.objects.create(
        organization=organization,
        type="area",
        status="pending",
        club=area.club,
        area=area,
        contact=contact,
        start_time=start,
        end_time=start + dt.timedelta(hours=1),
    )
    response = api.post(URL, {"bookingId": booking.pk}, format="json")
    assert response.status_code == 201
    assert response.json()["classId"] is None and response.json()["clubId"] == area.club_id
    assert Booking.objects.get(pk=booking.pk).status == "checked_in"


def test_check_in_an_anonymous_seat(api, organization, yoga):
    seat = Booking.objects.create(
        organization=organization,
        club=yoga.club,
        class_occurrence=yoga,
        contact=None,
        booker_name="Order #42",
        type="class",
        status="confirmed",
        start_time=yoga.start_time,
        end_time=yoga.end_time,
        entrance_method="direct_payment",
        payment_status="paid",
        payment_amount="12.10",
        source="portal",
    )
    response = api.post(URL, {"bookingId": seat.pk}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["contactId"] is None and body["contactName"] is None and body["bookingId"] == seat.pk
    seat.refresh_from_db()
    assert seat.status == "checked_in"
    row = api.get(f"/v1/platform/classes/{yoga.pk}/bookings").json()["data"][0]
    assert row["contactId"] is None and row["bookerName"] == "Order #42" and row["checkedIn"] is True
