"""Bounded player lists and e-mails on booking writes, and answers that do not tell a credential without
`contacts:read` whether an e-mail is known (the organizer's, a player's, an existing contact's)."""

import datetime as dt

import pytest

from apps.bookings.models import Booking, Player
from apps.clubs.models import Area, AreaType
from apps.contacts.models import Contact

from .conftest import iso
from .factories import area_booking

URL = "/v1/platform/bookings"
CHANNEL = "/v1/platform/channel-bookings"
LONG_EMAIL = "a" * 250 + "@example.com"  # a valid address, longer than the 254 characters a column holds
WITHOUT_CONTACTS_READ = ["bookings:read", "bookings:write"]


@pytest.fixture
def open_area(organization, club):
    """An area whose type sets no player limit."""
    area_type = AreaType.objects.create(organization=organization, name="Open field", slug="open-field")
    return Area.objects.create(organization=organization, club=club, area_type=area_type, name="Field")


def booking_body(area, contact, slot, **extra):
    return {"areaId": area.id, "contactId": contact.id, "startTime": iso(slot[0]), "endTime": iso(slot[1]), **extra}


# --- players: at most the area's limit, never more than 50 -------------------------------------------------------


def test_a_body_listing_more_than_50_players_is_400_on_players(api, open_area, contact, slot):
    players = [{"name": f"P{i}"} for i in range(51)]
    response = api.post(URL, booking_body(open_area, contact, slot, players=players), format="json")
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "VALIDATION_ERROR"
    assert list(body["details"]["fields"]) == ["players"]
    assert not Booking.objects.exists()


def test_an_area_without_a_player_limit_takes_at_most_50_players(api, open_area, contact, slot):
    players = [{"name": f"P{i}"} for i in range(49)]
    response = api.post(URL, booking_body(open_area, contact, slot, players=players), format="json")
    assert response.status_code == 201, response.content
    assert response.json()["playerCount"] == 50
    booking_id = response.json()["id"]

    response = api.post(f"{URL}/{booking_id}/players", {"name": "One too many"}, format="json")
    assert response.status_code == 409
    assert response.json() == {
        "error": "Conflict",
        "message": "The area takes at most 50 players.",
        "code": "PLAYER_LIMIT_REACHED",
        "details": {"maxPlayers": 50},
    }
    assert Player.objects.filter(booking_id=booking_id).count() == 50


def test_a_body_of_50_players_beside_the_organizer_is_409_player_limit(api, open_area, contact, slot):
    players = [{"name": f"P{i}"} for i in range(50)]
    response = api.post(URL, booking_body(open_area, contact, slot, players=players), format="json")
    assert response.status_code == 409
    assert response.json()["details"] == {"maxPlayers": 50}
    assert not Booking.objects.exists()


def test_an_area_types_own_limit_still_answers_as_before(api, area, contact, slot):
    players = [{"name": f"P{i}"} for i in range(4)]  # the organizer makes five on a four-player court
    response = api.post(URL, booking_body(area, contact, slot, players=players), format="json")
    assert response.status_code == 409
    assert response.json()["message"] == "The area takes at most 4 players."
    assert response.json()["details"] == {"maxPlayers": 4}


def test_a_player_email_longer_than_254_characters_is_400_on_email(api, organization, area, contact):
    booking = area_booking(organization, area=area, contact=contact)
    response = api.post(f"{URL}/{booking.id}/players", {"name": "Long", "email": LONG_EMAIL}, format="json")
    assert response.status_code == 400, response.content
    assert list(response.json()["details"]["fields"]) == ["email"]
    assert booking.players.count() == 1


def test_a_channel_contact_email_longer_than_254_characters_is_400(api, area, slot):
    body = channel_body(area, slot, contact={"firstName": "Long", "email": LONG_EMAIL})
    response = api.post(CHANNEL, body, format="json")
    assert response.status_code == 400, response.content
    assert list(response.json()["details"]["fields"]) == ["contact.email"]
    assert not Contact.objects.filter(first_name="Long").exists()


def test_the_openapi_document_bounds_players_and_emails(client):
    components = client.get("/v1/openapi.json").json()["components"]["schemas"]
    assert components["PlayerInputRequest"]["properties"]["email"]["oneOf"][0]["maxLength"] == 254
    assert components["ChannelContactRequest"]["properties"]["email"]["oneOf"][0]["maxLength"] == 254
    for component in ("AreaBookingCreateRequest", "ChannelBookingCreateRequest"):
        assert components[component]["properties"]["players"]["maxItems"] == 50


# --- e-mail privacy without contacts:read ------------------------------------------------------------------------


def _same_shape(known: dict, unknown: dict, *, fresh=("id", "createdAt", "updatedAt")):
    """Equal once the values that are fresh on every write are set aside."""

    def strip(value):
        if isinstance(value, dict):
            return {k: ("<fresh>" if k in fresh else strip(v)) for k, v in value.items()}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    assert strip(known) == strip(unknown)


def test_adding_a_player_with_the_organizers_email_looks_like_any_other_email(client_for, organization, area, contact):
    client = client_for(WITHOUT_CONTACTS_READ)
    known = area_booking(organization, area=area, contact=contact)
    unknown = area_booking(organization, area=area, contact=contact)

    guessed = client.post(f"{URL}/{known.id}/players", {"name": "Guess", "email": contact.email}, format="json")
    fresh = client.post(f"{URL}/{unknown.id}/players", {"name": "Guess", "email": "nobody@example.com"}, format="json")

    assert (guessed.status_code, fresh.status_code) == (201, 201), guessed.content
    _same_shape(guessed.json(), fresh.json())
    assert guessed.json()["email"] is None


def test_with_contacts_read_a_player_repeating_the_organizers_email_is_still_409(api, organization, area, contact):
    booking = area_booking(organization, area=area, contact=contact)
    organizer = booking.players.get()
    response = api.post(f"{URL}/{booking.id}/players", {"name": "Again", "email": contact.email}, format="json")
    assert response.status_code == 409
    assert response.json()["details"] == {"field": "email", "existingId": organizer.id}


def test_listing_the_organizers_email_among_players_looks_like_any_other_email(client_for, area, contact, slot):
    client = client_for(WITHOUT_CONTACTS_READ)
    later = (slot[0] + dt.timedelta(hours=2), slot[1] + dt.timedelta(hours=2))
    guessed = client.post(
        URL, booking_body(area, contact, slot, players=[{"name": "Guess", "email": contact.email}]), format="json"
    )
    fresh = client.post(
        URL,
        booking_body(area, contact, later, players=[{"name": "Guess", "email": "nobody@example.com"}]),
        format="json",
    )
    assert (guessed.status_code, fresh.status_code) == (201, 201), guessed.content
    _same_shape(guessed.json(), fresh.json(), fresh=("id", "createdAt", "updatedAt", "startTime", "endTime"))


def channel_body(area, slot, **extra):
    return {
        "externalSource": "playtomic",
        "externalId": "PT-123",
        "areaId": area.id,
        "startTime": iso(slot[0]),
        "endTime": iso(slot[1]),
        "contact": {"firstName": "Lia", "lastName": "Sol", "email": "lia@example.com"},
        **extra,
    }


def test_a_channel_booking_for_a_known_email_looks_like_one_for_an_unknown_email(client_for, area, contact, slot):
    client = client_for(WITHOUT_CONTACTS_READ)
    later = (slot[0] + dt.timedelta(hours=2), slot[1] + dt.timedelta(hours=2))
    guess = {"firstName": "Zed", "email": contact.email.upper()}
    guessed = client.post(CHANNEL, channel_body(area, slot, externalId="G-1", contact=guess), format="json")
    nobody = {"firstName": "Zed", "email": "nobody@example.com"}
    fresh = client.post(CHANNEL, channel_body(area, later, externalId="G-2", contact=nobody), format="json")

    assert (guessed.status_code, fresh.status_code) == (201, 201), guessed.content
    fresh_values = ("id", "createdAt", "updatedAt", "startTime", "endTime", "externalId", "contactId")
    _same_shape(guessed.json(), fresh.json(), fresh=fresh_values)
    body = guessed.json()
    assert body["contactName"] == "Zed" and body["contactId"] != contact.id
    assert [p["name"] for p in body["players"]] == ["Zed"]
    # read back later, the booking still names the contact the caller sent, never the existing one
    assert client.get(f"{CHANNEL}/playtomic/G-1").json()["contactName"] == "Zed"
    assert not Booking.objects.filter(contact=contact).exists()


def test_a_class_channel_booking_for_a_known_email_does_not_book_the_existing_contact(
    client_for, organization, club, contact, slot
):
    from apps.classes.models import ClassOccurrence

    klass = ClassOccurrence.objects.create(
        organization=organization, club=club, name="Spin", start_time=slot[0], end_time=slot[1]
    )
    body = {
        "externalSource": "classpass",
        "externalId": "CP-9",
        "type": "class",
        "classId": klass.id,
        "contact": {"firstName": "Zed", "email": contact.email},
    }
    response = client_for(WITHOUT_CONTACTS_READ).post(CHANNEL, body, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["contactName"] == "Zed" and response.json()["contactId"] != contact.id


def test_with_contacts_read_a_channel_booking_still_reuses_the_contact_with_that_email(client_for, area, contact, slot):
    client = client_for(WITHOUT_CONTACTS_READ + ["contacts:read"])
    body = channel_body(area, slot, contact={"firstName": "Whoever", "email": contact.email})
    response = client.post(CHANNEL, body, format="json")
    assert response.status_code == 201
    assert (response.json()["contactId"], response.json()["contactName"]) == (contact.id, "Ana Lopez")
    assert Contact.objects.count() == 1
