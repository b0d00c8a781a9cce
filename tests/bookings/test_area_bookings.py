import datetime as dt
from decimal import Decimal

import pytest

from apps.bookings.models import Booking, Player
from apps.classes.models import ClassOccurrence
from apps.contacts.choices import ContactStatus
from apps.contacts.models import Contact
from apps.domain_events.models import DomainEvent
from apps.occupancy.models import AreaBlock
from apps.webhooks.envelope import envelope

from .conftest import iso
from .factories import area_booking

URL = "/v1/platform/bookings"


def body(area, contact, slot, **extra):
    return {"areaId": area.id, "contactId": contact.id, "startTime": iso(slot[0]), "endTime": iso(slot[1]), **extra}


def test_create_area_booking_full_shape(
    api, organization, club, area, contact, slot, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(
            URL,
            body(
                area,
                contact,
                slot,
                players=[{"name": "Guest", "email": "guest@example.com"}],
                notes="bring balls",
                price=1,
            ),
            format="json",
        )
    assert response.status_code == 201, response.content
    data = response.json()
    booking = Booking.objects.get(pk=data["id"])
    assert response["Location"] == f"/v1/platform/bookings/{booking.id}"
    organizer, guest = list(booking.players.order_by("-is_organizer", "id"))
    assert data == {
        "id": booking.id,
        "type": "area",
        "status": "confirmed",
        "clubId": club.id,
        "areaId": area.id,
        "area": {"id": area.id, "name": "Court 1"},
        "classId": None,
        "eventId": None,
        "contactId": contact.id,
        "contactName": "Ana Lopez",
        "contactEmail": "ana@example.com",
        "bookerName": None,
        "startTime": iso(slot[0]),
        "endTime": iso(slot[1]),
        "durationMinutes": 60,
        "sport": "padel",
        "players": [
            {
                "id": organizer.id,
                "contactId": contact.id,
                "name": "Ana Lopez",
                "email": "ana@example.com",
                "isOrganizer": True,
                "createdAt": data["players"][0]["createdAt"],
            },
            {
                "id": guest.id,
                "contactId": None,
                "name": "Guest",
                "email": "guest@example.com",
                "isOrganizer": False,
                "createdAt": data["players"][1]["createdAt"],
            },
        ],
        "playerCount": 2,
        "priceBeforeTax": 20.0,
        "price": 24.2,
        "payment": {
            "status": "unpaid",
            "amount": 24.2,
            "paidAmount": 0.0,
            "refundedAmount": 0.0,
            "reference": None,
            "fee": None,
        },
        "membershipId": None,
        "entranceMethod": "direct_payment",
        "source": "api",
        "externalSource": None,
        "externalId": None,
        "checkedIn": False,
        "checkedInAt": None,
        "notes": "bring balls",
        "cancelledAt": None,
        "cancellationReason": None,
        "createdAt": data["createdAt"],
        "updatedAt": data["updatedAt"],
    }
    events = {e.type: e for e in DomainEvent.objects.all()}
    # A priced booking carries its charge (a transaction created in the same database transaction).
    assert set(events) == {"booking.created", "availability.changed", "transaction.created"}
    assert events["booking.created"].data["id"] == booking.id
    assert events["booking.created"].data["contactEmail"] == "ana@example.com"  # stored whole (webhooks redact)
    assert events["booking.created"].data["players"][1]["email"] == "guest@example.com"
    blind = envelope(events["booking.created"], frozenset({"bookings:read"}))["data"]
    assert blind["contactEmail"] is None and blind["players"][1]["email"] is None
    local_date = slot[0].astimezone(dt.timezone(dt.timedelta(hours=1))).date()  # noqa: F841 (Madrid, roughly)
    assert events["availability.changed"].data == {
        "organizationId": organization.id,
        "clubId": club.id,
        "areaId": area.id,
        "date": events["availability.changed"].data["date"],
        "startTime": iso(slot[0]),
        "endTime": iso(slot[1]),
        "cause": "booking",
    }


def test_price_defaults_to_hourly_rate_times_hours_and_explicit_price(api, area, contact, slot):
    start = slot[0]
    response = api.post(URL, body(area, contact, (start, start + dt.timedelta(minutes=90))), format="json")
    assert response.json()["priceBeforeTax"] == 30.0
    assert response.json()["price"] == 36.3
    later = (start + dt.timedelta(hours=3), start + dt.timedelta(hours=4))
    response = api.post(URL, body(area, contact, later, priceBeforeTax=0), format="json")
    assert response.status_code == 201
    assert response.json()["price"] == 0.0
    assert response.json()["payment"]["status"] == "no_charge"


def test_contact_email_hidden_without_contacts_read(client_for, area, contact, slot):
    client = client_for(["bookings:read", "bookings:write"])
    response = client.post(URL, body(area, contact, slot, players=[{"name": "G", "email": "g@x.com"}]), format="json")
    assert response.status_code == 201
    data = response.json()
    assert data["contactEmail"] is None
    assert [p["email"] for p in data["players"]] == [None, None]
    assert client.get(f"{URL}/{data['id']}").json()["contactEmail"] is None


@pytest.mark.parametrize(
    "change, field",
    [
        ({"startTime": "2030-01-01T10:00:00"}, "startTime"),
        ({"areaId": None}, "areaId"),
        ({"contactId": 0}, "contactId"),
        ({"status": "checked_in"}, "status"),
        ({"priceBeforeTax": -1}, "priceBeforeTax"),
    ],
)
def test_invalid_bodies_are_400(api, area, contact, slot, change, field):
    response = api.post(URL, {**body(area, contact, slot), **change}, format="json")
    assert response.status_code == 400
    assert field in response.json()["details"]["fields"]


def test_end_before_start_is_400(api, area, contact, slot):
    response = api.post(URL, body(area, contact, (slot[1], slot[0])), format="json")
    assert response.status_code == 400
    assert "endTime" in response.json()["details"]["fields"]


@pytest.mark.parametrize(
    ("start", "end"),
    [
        ("0001-01-01T00:00:00Z", "0001-01-01T01:00:00Z"),
        ("9999-12-31T22:00:00Z", "9999-12-31T23:00:00Z"),
        ("1899-12-31T10:00:00Z", "1899-12-31T11:00:00Z"),
    ],
)
def test_times_at_the_edge_of_the_calendar_are_400_not_500(api, area, contact, start, end):
    body = {"areaId": area.id, "contactId": contact.id, "startTime": start, "endTime": end}
    response = api.post(URL, body, format="json")
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "VALIDATION_ERROR"
    assert body["details"]["fields"]["startTime"] == ["Must be between 1900-01-01 and 2199-12-31."]
    assert not Booking.objects.exists()


def test_edge_times_on_patch_checkin_and_payment_report_are_400(api, organization, area):
    booking = area_booking(organization, area=area, external_source="partner", external_id="e-1")
    response = api.patch(f"{URL}/{booking.id}", {"startTime": "9999-12-31T22:00:00Z"}, format="json")
    assert response.status_code == 400
    assert "startTime" in response.json()["details"]["fields"]
    checkin = {"bookingId": booking.id, "checkedInAt": "0001-01-01T00:00:00Z"}
    response = api.post("/v1/platform/checkins", checkin, format="json")
    assert response.status_code == 400
    assert "checkedInAt" in response.json()["details"]["fields"]
    response = api.post(
        "/v1/platform/channel-bookings/partner/e-1/payment",
        {"payment": {"paidAmount": 1, "reference": "r", "paidAt": "9999-12-31T23:59:00Z"}},
        format="json",
    )
    assert response.status_code == 400
    assert "payment.paidAt" in response.json()["details"]["fields"]


def test_foreign_area_or_contact_is_400(api, area, contact, slot, other_organization):
    from .factories import area_for, contact_for

    response = api.post(URL, body(area_for(other_organization), contact, slot), format="json")
    assert response.status_code == 400 and "areaId" in response.json()["details"]["fields"]
    response = api.post(URL, body(area, contact_for(other_organization), slot), format="json")
    assert response.status_code == 400 and "contactId" in response.json()["details"]["fields"]


def test_archived_contact_cannot_book(api, area, contact, slot):
    contact.status = ContactStatus.ARCHIVED
    contact.save()
    response = api.post(URL, body(area, contact, slot), format="json")
    assert response.status_code == 400 and "contactId" in response.json()["details"]["fields"]


def test_overlapping_booking_block_and_class_are_409(api, organization, club, area, contact, slot):
    first = api.post(URL, body(area, contact, slot), format="json").json()
    half = dt.timedelta(minutes=30)
    response = api.post(URL, body(area, contact, (slot[0] + half, slot[1] + half)), format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "SLOT_UNAVAILABLE"
    assert response.json()["details"] == {"conflicts": [{"type": "booking", "id": first["id"]}]}
    # back-to-back is fine
    assert api.post(URL, body(area, contact, (slot[1], slot[1] + half)), format="json").status_code == 201

    later = (slot[0] + dt.timedelta(hours=5), slot[1] + dt.timedelta(hours=5))
    block = AreaBlock.objects.create(
        organization=organization, club=club, area=area, start_time=later[0], end_time=later[1]
    )
    klass = ClassOccurrence.objects.create(
        organization=organization, club=club, area=area, name="Clinic", start_time=later[0], end_time=later[1]
    )
    ClassOccurrence.objects.create(
        organization=organization,
        club=club,
        area=area,
        name="Cancelled clinic",
        start_time=later[0],
        end_time=later[1],
        status="cancelled",
    )
    response = api.post(URL, body(area, contact, later), format="json")
    assert response.status_code == 409
    assert response.json()["details"]["conflicts"] == [
        {"type": "block", "id": block.id},
        {"type": "class", "id": klass.id},
    ]


def test_cancelled_booking_frees_the_slot(api, area, contact, slot):
    first = api.post(URL, body(area, contact, slot), format="json").json()
    assert api.post(f"{URL}/{first['id']}/cancel").status_code == 200
    assert api.post(URL, body(area, contact, slot), format="json").status_code == 201


def test_player_limit(api, organization, area, contact, slot):
    players = [{"name": f"P{i}"} for i in range(4)]  # 1 organizer + 4 > max 4
    response = api.post(URL, body(area, contact, slot, players=players), format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "PLAYER_LIMIT_REACHED"
    assert response.json()["details"] == {"maxPlayers": 4}
    assert not Booking.objects.exists()
    response = api.post(URL, body(area, contact, slot, players=players[:3]), format="json")
    assert response.status_code == 201 and response.json()["playerCount"] == 4


def test_organizer_listed_again_among_players_counts_once(api, area, contact, slot, organization):
    other = Contact.objects.create(organization=organization, first_name="Bo", email="bo@example.com")
    response = api.post(
        URL, body(area, contact, slot, players=[{"contactId": contact.id}, {"contactId": other.id}]), format="json"
    )
    assert response.status_code == 201
    assert [(p["contactId"], p["isOrganizer"]) for p in response.json()["players"]] == [
        (contact.id, True),
        (other.id, False),
    ]


def test_pending_status_and_notify_customer(api, area, contact, slot, django_capture_on_commit_callbacks, mailoutbox):
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(URL, body(area, contact, slot, status="pending", notifyCustomer=True), format="json")
    assert response.status_code == 201
    assert response.json()["status"] == "pending"
    assert [m.to for m in mailoutbox] == [["ana@example.com"]]


def test_get_and_unknown_and_foreign(api, other_organization):
    from .factories import area_booking

    foreign = area_booking(other_organization)
    assert api.get(f"{URL}/{foreign.id}").status_code == 404
    assert api.get(f"{URL}/999999").status_code == 404


def test_price_decimal_stored(api, area, contact, slot):
    response = api.post(URL, body(area, contact, slot, priceBeforeTax=12.5), format="json")
    booking = Booking.objects.get(pk=response.json()["id"])
    assert booking.price_before_tax == Decimal("12.50")
    assert booking.payment_amount == Decimal(str(response.json()["price"]))  # same rounding as `price`
    assert Player.objects.filter(booking=booking, is_organizer=True).count() == 1


def test_idempotency_key_replays_the_booking_without_a_second_one(api, area, contact, slot):
    headers = {"HTTP_IDEMPOTENCY_KEY": "book-court-1"}
    first = api.post(URL, body(area, contact, slot), format="json", **headers)
    second = api.post(URL, body(area, contact, slot), format="json", **headers)
    assert first.status_code == second.status_code == 201
    assert second["Idempotent-Replayed"] == "true"
    assert second.json() == first.json()
    assert Booking.objects.count() == 1
